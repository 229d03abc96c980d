#!/usr/bin/env python3
"""The evidence agreement under each alternative of each structural rule.

Usage (from the repository root, after `swift build -c release`):

    python3 Scenarios/evidence/sensitivity.py [path/to/reloadbench]

For each alternative below, writes one small scenario per evidence file that
`extends` it and changes that one model parameter, runs
`reloadbench check ... --json -`, and prints a Markdown row: the alternative,
how many claims agree, and which apps agree (+) or not (-). The table in
Scenarios/README.md ("Sensitivity") is this script's output.
"""
import glob, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/reloadbench")

# (rule, alternative, model overrides); the first row is the defaults.
OLD = {"budget": {"accrual": "sliding_window"},
       "reload": {"asap": "immediate", "lateness_pressure": "none"},
       "app_reload": {"background_latency": {"dist": "constant", "value_s": 0}, "while_asleep": "spend"}}
ALTERNATIVES = [
    ("defaults", "as shipped", {}),
    ("budget.accrual", "sliding_window", {"budget": {"accrual": "sliding_window"}}),
    ("budget.token_bucket_burst_fraction", "0.1", {"budget": {"token_bucket_burst_fraction": 0.1}}),
    ("budget.token_bucket_burst_fraction", "0.5", {"budget": {"token_bucket_burst_fraction": 0.5}}),
    ("reload.asap", "immediate", {"reload": {"asap": "immediate"}}),
    ("reload.asap + budget.accrual", "immediate, sliding_window",
     {"reload": {"asap": "immediate"}, "budget": {"accrual": "sliding_window"}}),
    ("reload.lateness_pressure", "none", {"reload": {"lateness_pressure": "none"}}),
    ("reload.lateness", "realistic (pressure: budget)", {"reload": {"lateness": "realistic"}}),
    ("reload.lateness", "realistic (pressure: none)", {"reload": {"lateness": "realistic", "lateness_pressure": "none"}}),
    ("app_reload.background_latency", "0 s", {"app_reload": {"background_latency": {"dist": "constant", "value_s": 0}}}),
    ("app_reload.background_latency", "120 s", {"app_reload": {"background_latency": {"dist": "constant", "value_s": 120}}}),
    ("app_reload.burst", "one", {"app_reload": {"burst": "one"}}),
    ("app_reload.while_asleep", "spend", {"app_reload": {"while_asleep": "spend"}}),
    ("app_reload.enter_background", "free", {"app_reload": {"enter_background": "free"}}),
    ("all four rules as before issue 14", "window, immediate, no pressure, 0 s, spend", OLD),
]

def main():
    files = sorted(glob.glob(os.path.join(ROOT, "Scenarios/evidence/*.json")))
    apps = [os.path.basename(f)[:-5] for f in files]
    print("| rule | alternative | agree | " + " | ".join(apps) + " |")
    print("|---|---|--:|" + "---|" * len(apps))
    with tempfile.TemporaryDirectory() as tmp:
        for rule, alternative, model in ALTERNATIVES:
            paths = []
            for f in files:
                p = os.path.join(tmp, os.path.basename(f))
                json.dump({"extends": f, "model": model} if model else {"extends": f}, open(p, "w"))
                paths.append(p)
            r = subprocess.run([BIN, "check", *paths, "--quiet", "--json", "-", "--out", os.path.join(tmp, "out")],
                               capture_output=True, text=True)
            if r.returncode not in (0, 1):
                sys.exit(f"{rule} = {alternative}: reloadbench check exited {r.returncode}: {r.stderr.strip()}")
            run = json.loads(r.stdout)
            marks = ["+" if all(c["agrees"] for c in s["evidence"]) else "**-**" for s in run["scenarios"]]
            print(f"| `{rule}` | {alternative} | {run['evidence_agreeing']} of {run['evidence_claims']} | "
                  + " | ".join(marks) + " |")

main()

#!/usr/bin/env python3
"""The evidence agreement under each model profile and each alternative of each assumption.

Usage (from the repository root, after `swift build -c release`):

    python3 Scenarios/evidence/sensitivity.py [path/to/reloadbench]

The profiles and the assumptions' named alternatives come from the tool
(`reloadbench list --profiles --json`, `reloadbench list --assumptions --json`),
so this script keeps no list of its own. For each profile it runs
`reloadbench check Scenarios/evidence/*.json --profile NAME --json -`; for each
alternative it writes one small scenario per evidence file that `extends` it
and sets the alternative's `model` block, and runs `reloadbench check` on them.
Each prints a Markdown row: the profile or the assumption and alternative, how
many claims agree, and which apps agree (+) or not (-; an app with several claims
shows how many of them agree). The table in Scenarios/README.md ("Sensitivity") is
this script's output.

    python3 Scenarios/evidence/sensitivity.py [path/to/reloadbench] --agreement

prints instead, from one `reloadbench check Scenarios/evidence/*.json` under the
default model, the agreement split by the claims' strength with the disagreements
named, and the table of claims (Scenarios/README.md, "What the default model
predicts"), in seconds.
"""
import glob, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARGS = [a for a in sys.argv[1:] if a != "--agreement"]
AGREEMENT = "--agreement" in sys.argv[1:]
BIN = ARGS[0] if ARGS else os.path.join(ROOT, ".build/release/reloadbench")

# Combinations of alternatives that are no profile but that docs/model.md
# cites, by the tool's names: (assumption number, alternative name).
COMBINATIONS = [
    [(5, "realistic"), (14, "none")],
]


def tool(*args):
    r = subprocess.run([BIN, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"reloadbench {' '.join(args)} exited {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def merged(blocks):
    """Model blocks laid over one another, objects key by key (as `extends` does)."""
    out = {}
    for b in blocks:
        for k, v in b.items():
            out[k] = merged([out[k], v]) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def paths(block, prefix=""):
    """The parameters a model block sets (`budget.accrual`); a distribution is one value,
    and one flag of several wake source types is `wake_sources.*.flag`."""
    out = []
    for k, v in block.items():
        if isinstance(v, dict) and "dist" not in v:
            out += paths(v, prefix + k + ".")
        else:
            out.append(prefix + k)
    if prefix == "":
        short = []
        for p in out:
            parts = p.split(".")
            p = "wake_sources.*." + parts[2] if parts[0] == "wake_sources" else p
            if p not in short:
                short.append(p)
        out = short
    return out


def check(files, tmp, model=None, profile=None):
    paths = files
    if model is not None:
        paths = []
        for f in files:
            p = os.path.join(tmp, os.path.basename(f))
            json.dump({"extends": f, "model": model}, open(p, "w"))
            paths.append(p)
    args = [BIN, "check", *paths, "--quiet", "--json", "-", "--out", os.path.join(tmp, "out")]
    if profile is not None:
        args += ["--profile", profile]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit(f"reloadbench check exited {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def mark(scenario):
    """+ when every claim of the app agrees, - when none does, else how many do."""
    agree = sum(c["agrees"] for c in scenario["evidence"])
    n = len(scenario["evidence"])
    return "+" if agree == n else "**-**" if agree == 0 else f"{agree} of {n}"


def agreement(files, tmp):
    """The default model's agreement, split by strength, and the table of claims."""
    run = check(files, tmp)
    rows = [(os.path.basename(f)[:-5], c) for f, s in zip(files, run["scenarios"]) for c in s["evidence"]]
    split = []
    for strength, label in (("reported", "reported"), ("weak", "weak")):
        claims = [c for _, c in rows if c["strength"] == strength]
        split.append(f"{sum(c['agrees'] for c in claims)} of {len(claims)} {label}")
    names = [f"{app} (`{c['policy']}`)" for app, c in rows if not c["agrees"]]
    print(f"**{run['evidence_agreeing']} of {run['evidence_claims']} claims agree** "
          f"({len(files)} apps; {', '.join(split)}). Disagree: {', '.join(names) if names else 'none'}.\n")
    print("| app | strategy (segment) | reported | strength | the run has | frozen widget-days % "
          "| acceptable glances % | agrees |")
    print("|---|---|---|---|---|--:|--:|---|")
    for app, c in rows:
        segment = "" if c["segment"] == "all" else f" ({c['segment']})"
        has = ", ".join(c["predicted"]) or "–"
        agrees = "yes" if c["agrees"] else "**no**"
        print(f"| {app} | `{c['policy']}`{segment} | {c['reported']} | {c['strength']} | {has} "
              f"| {c['frozen_widget_day_pct']:.1f} | {c['acceptable_glance_pct']:.1f} | {agrees} |")


def main():
    files = sorted(glob.glob(os.path.join(ROOT, "Scenarios/evidence/*.json")))
    apps = [os.path.basename(f)[:-5] for f in files]
    if AGREEMENT:
        with tempfile.TemporaryDirectory() as tmp:
            agreement(files, tmp)
        return
    profiles = tool("list", "--profiles", "--json")["profiles"]
    assumptions = tool("list", "--assumptions", "--json")["assumptions"]
    alternative = {(a["number"], alt["name"]): alt for a in assumptions for alt in a["alternatives"]}

    rows = [("profile", f"`{p['name']}`", {"profile": p["name"]}) for p in profiles]
    for a in assumptions:
        for alt in a["alternatives"]:
            # The Live Activity readings (model.activity) change no widget:
            # no evidence app has Live Activities, so they are not run.
            if all(p.startswith("activity.") for p in paths(alt["model"])):
                continue
            rule = f"{a['number']}: " + ", ".join(f"`{p}`" for p in paths(alt["model"]))
            rows.append((rule, f"`{alt['name']}`", {"model": alt["model"]}))
    for combo in COMBINATIONS:
        model = merged([alternative[c]["model"] for c in combo])
        rule = ", ".join(f"{c[0]}: " + ", ".join(f"`{p}`" for p in paths(alternative[c]["model"])) for c in combo)
        rows.append((rule, " + ".join(f"`{name}`" for _, name in combo), {"model": model}))

    print("| rule | alternative | agree | " + " | ".join(apps) + " |")
    print("|---|---|--:|" + "---|" * len(apps))
    with tempfile.TemporaryDirectory() as tmp:
        for rule, name, how in rows:
            run = check(files, tmp, **how)
            marks = [mark(s) for s in run["scenarios"]]
            print(f"| {rule} | {name} | {run['evidence_agreeing']} of {run['evidence_claims']} | "
                  + " | ".join(marks) + " |")


main()

#!/usr/bin/env python3
"""The calibration recovery matrix (Scenarios/README.md#calibration-recovery-matrix).

Logs emitted from known models (accrual sliding_window and token_bucket x B 40,
50, 70 x polling every 5, 10, 15, 30 minutes x with and without app reload
calls) are fitted back with `reloadbench calibrate`. Where the budget held
requests back (the run's withheld_requests_per_widget_day), B must come back
within 10 % and the accrual must be named correctly or left undecided (a cell where
it held fewer than one request a widget-day may also read "not identifiable"); B
and the accrual must never be claimed wrong. Token buckets holding a tenth and a half
of B (B 50, polling every 10 and 15 minutes) must be named by the verdict (small_bucket,
large_bucket). Prints Markdown tables; exits 1 on a miss.

  python3 scripts/calibration-matrix.py .build/release/reloadbench [--devices 300] [--days 7] [--jobs 2]
"""
import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys
import tempfile


def scenario(accrual, budget, poll_min, app, devices, days, burst=None):
    app_block = {"reload_on_foreground": True, "reload_on_silent_push": True} if app else {}
    strategy = {"name": "deployed", "preset": "poll-60m",
                "kinds": [{"kind": "live", "timeline": {"policy": "after", "after_min": poll_min}}]}
    if app:
        strategy["app"] = app_block
        strategy["backend"] = {"silent_push": {"on": "unpredictable", "coalesce_min": 30}}
    return {
        "name": f"matrix-{accrual}-{budget}-{poll_min}-{'app' if app else 'plain'}",
        "seed": 7 + budget + poll_min, "days": days, "warmup_days": 0, "devices": devices,
        "model": {
            "budget": dict({"accrual": accrual, "max_per_day": budget, "full_budget_views_per_day": 0},
                           **({"token_bucket_burst_fraction": burst} if burst is not None else {})),
            "reload": {"lateness": {"dist": "uniform", "min_s": 0, "max_s": 120}},
        },
        "kinds": [{"name": "live", "unpredictable": {"per_day": 24, "profile": "daytime"}}],
        "segments": [{
            "name": "users", "wake_hour": [7, 8], "sleep_hour": [22, 23], "home_views_per_day": 60,
            "app_sessions_per_day": 3 if app else 0, "widgets": [{"kind": "live"}],
        }],
        "strategies": [strategy],
    }


def cell(args, accrual, budget, poll_min, app, burst=None):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.json")
        with open(path, "w") as f:
            json.dump(scenario(accrual, budget, poll_min, app, args.devices, args.days, burst), f)
        subprocess.run([args.bin, "run", path, "--out", os.path.join(d, "run"), "--quiet",
                        "--emit-log", os.path.join(d, "log.csv")], check=True)
        subprocess.run([args.bin, "calibrate", os.path.join(d, "log.csv"), "--out", os.path.join(d, "cal"),
                        "--quiet"], check=True)
        row = next(r for r in csv.DictReader(open(os.path.join(d, "run", "summary.csv"))) if r["segment"] == "all")
        fit = json.load(open(os.path.join(d, "cal", "calibration.json")))
    params = {p["field"]: p for p in fit["parameters"]}
    verdict = next(v for v in fit["assumptions"] if v["assumption"] == "budget_accrual")
    withheld = float(row["withheld_requests_per_widget_day"])
    held = withheld > 0
    # Held about once a widget-day or less: too rare to require; a claim must still be right.
    rare = withheld < 1
    b, acc = params["budget.max_per_day"], params["budget.accrual"]
    got_b = b["estimate"] if b["status"] == "identified" else None
    got_acc = acc.get("choice") if acc["status"] == "identified" else None
    problems = []
    if held and not rare and got_b is None:
        problems.append("B not recovered")
    if got_b is not None and abs(got_b - budget) > 0.1 * budget:
        problems.append("B wrong")
    if got_acc is not None and got_acc != accrual:
        problems.append("accrual wrong")
    why = "" if got_b is not None else b["note"].split(":")[0][:70]
    return dict(accrual=accrual, budget=budget, poll=poll_min, app=app, withheld=withheld, held=held, rare=rare,
                b=got_b, burst=burst, supported=verdict["supported"],
                acc=got_acc or acc["status"], allowed=",".join(verdict["allowed"]), problems=problems, why=why)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--devices", type=int, default=300)
    ap.add_argument("--days", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    cells = [(a, b, p, app) for a in ("sliding_window", "token_bucket") for b in (40, 50, 70)
             for p in (5, 10, 15, 30) for app in (False, True)]
    # The bucket's size at a tenth and a half of B (the model's own quarter is every bucket cell above).
    sizes = [("token_bucket", 50, p, False, burst) for burst in (0.1, 0.5) for p in (10, 15)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda c: cell(args, *c), cells))
        size_rows = list(pool.map(lambda c: cell(args, *c), sizes))
    print("| accrual | B | poll (min) | app calls | withheld / widget-day | fitted B | accrual read | "
          "allowed readings | verdict |")
    print("|---|---|---|---|---|---|---|---|---|")
    bad = 0
    for r in rows:
        why = f" ({r['why']})" if r["why"] else ""
        verdict = "; ".join(r["problems"]) or (
            "ok" if r["b"] is not None else ("ok: held rarely" if r["held"] else "ok: not held") + why)
        bad += bool(r["problems"])
        b = f"{r['b']:.1f}" if r["b"] is not None else "not identified"
        print(f"| {r['accrual']} | {r['budget']} | {r['poll']} | {'yes' if r['app'] else 'no'} | "
              f"{r['withheld']:.1f} | {b} | {r['acc']} | {r['allowed']} | {verdict} |")
    held = [r for r in rows if r["held"] and not r["rare"]]
    named = sum(1 for r in held if r["acc"] == r["accrual"])
    summary = (f"{len(rows)} cells; the budget held requests back (once a widget-day or more) in {len(held)}: "
          f"B within 10 % in "
          f"{sum(1 for r in held if r['b'] is not None and abs(r['b'] - r['budget']) <= 0.1 * r['budget'])}, "
          f"accrual named in {named}; wrong B in {sum(1 for r in rows if 'B wrong' in r['problems'])}, "
          f"wrong accrual in "
          f"{sum(1 for r in rows if 'accrual wrong' in r['problems'])}; "
          f"{bad} misses.")
    print("\n| bucket holds | B | poll (min) | fitted B | reading supported | verdict |")
    print("|---|---|---|---|---|---|")
    size_bad = 0
    size_named = 0
    for r in size_rows:
        want = {0.1: "small_bucket", 0.5: "large_bucket"}[r["burst"]]
        size_named += r["supported"] == want
        problems = r["problems"] + ([] if r["supported"] == want else [f"supported {r['supported']}, not {want}"])
        size_bad += bool(problems)
        b = f"{r['b']:.1f}" if r["b"] is not None else "not identified"
        print(f"| {r['burst']} of B | {r['budget']} | {r['poll']} | {b} | {r['supported']} | "
              f"{'; '.join(problems) or 'ok'} |")
    print(f"\n{summary} Bucket size (a tenth and a half of B): {len(size_rows)} cells, reading named in "
          f"{size_named}; {size_bad} misses.")
    sys.exit(1 if bad or size_bad else 0)


if __name__ == "__main__":
    main()

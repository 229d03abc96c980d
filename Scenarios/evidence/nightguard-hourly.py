#!/usr/bin/env python3
"""Nightguard's measured reload rate against the model, by local hour.

Usage (from the repository root, after `swift build -c release`):

    python3 Scenarios/evidence/nightguard-hourly.py [path/to/reloadbench] [--check] [--model JSON]

nightscout/nightguard#336 (2025-12) reports that a Lock Screen widget whose provider
returns one entry with `.after(now + 10 min)`, and that no app call reloads, "will display
out of date information until the current information is 30 minutes old and will then update
to show information that is 5 minutes old": one reload about every 25 minutes. Both figures
are round (to 5 minutes), so the report's own uncertainty is 25 +- 5 minutes between reloads:
2.0 to 3.0 reloads an hour. The maintainer (#246): "at night completely stops updates".

The script runs `Scenarios/apps/nightguard.json` with only the strategy of the report
(`shipped-46fbb5c`, first, so that `--emit-log` writes its log; the file's devices, seed and
model), reads the emitted reload log (Scenarios/log-format.md) and counts the Lock Screen
widgets' timeline reloads by each device's local hour, per widget and measured day. It
prints a Markdown table (the one in Scenarios/README.md, "Nightguard's measured rate") and,
with --check, exits 1 unless
  - at night (01:00-06:00 local) the widgets reload less than 0.05 times an hour, and
  - in the afternoon and evening (14:00-22:00 local) they reload 2.0 to 3.0 times an hour
    (every 20 to 30 minutes), the report's figure within its uncertainty.
The hours after waking are printed, not checked: the report does not say at what time of
day it was seen (see Scenarios/README.md for what the model does there). `--model` lays a
model block over the file's (as `extends` does), to see the figure under another reading:
`--model '{"budget": {"token_bucket_burst_fraction": 0.1}}'`.
"""
import collections, csv, datetime, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
argv = sys.argv[1:]
MODEL = None
if "--model" in argv:
    i = argv.index("--model")
    if i + 1 >= len(argv):
        sys.exit("--model needs a JSON object (fix: --model '{\"budget\": {\"max_per_day\": 48}}')")
    MODEL = json.loads(argv[i + 1])
    argv = argv[:i] + argv[i + 2:]
args = [a for a in argv if a != "--check"]
CHECK = "--check" in argv
BIN = args[0] if args else os.path.join(ROOT, ".build/release/reloadbench")
APP = os.path.join(ROOT, "Scenarios/apps/nightguard.json")
STRATEGY, KIND = "shipped-46fbb5c", "lock"
NIGHT, EVENING = range(1, 6), range(14, 22)
BAND = (2.0, 3.0)  # reloads an hour: every 30 to every 20 minutes


def run(tmp):
    app = json.load(open(APP))
    strategy = next(s for s in app["strategies"] if isinstance(s, dict) and s.get("name") == STRATEGY)
    path = os.path.join(tmp, "nightguard-hourly.json")
    derived = {"extends": APP, "name": "nightguard-hourly", "strategies": [strategy]}
    if MODEL is not None:
        derived["model"] = MODEL
    json.dump(derived, open(path, "w"))
    log = os.path.join(tmp, "log.csv")
    r = subprocess.run([BIN, "run", path, "--quiet", "--out", os.path.join(tmp, "out"), "--emit-log", log],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"reloadbench run exited {r.returncode}: {r.stderr.strip()}")
    return app, log


def per_hour(app, log):
    """Reloads per widget and measured day in each local hour, for the kind's widgets."""
    widgets, counts, utc_days = set(), collections.Counter(), set()
    for row in csv.DictReader(open(log)):
        utc_days.add(row["time"][:10])
        if row["type"] != "timeline" or row["kind"] != KIND:
            continue
        t = datetime.datetime.fromisoformat(row["time"].replace("Z", "+00:00"))
        local = t + datetime.timedelta(minutes=int(row["utc_offset_min"]))
        widgets.add((row["device"], row["instance"]))
        counts[local.hour] += 1
    days = app["days"] - app.get("warmup_days", 0)
    assert len(utc_days) == days, f"the log spans {len(utc_days)} UTC days, the run measures {days}"
    return [counts[h] / len(widgets) / days for h in range(24)], len(widgets), days


def mean(rates, hours):
    return sum(rates[h] for h in hours) / len(hours)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        app, log = run(tmp)
        rates, widgets, days = per_hour(app, log)
    night, evening = mean(rates, NIGHT), mean(rates, EVENING)
    peak = max(range(24), key=lambda h: rates[h])
    model = "" if MODEL is None else f", model {json.dumps(MODEL)}"
    print(f"Nightguard `{STRATEGY}`, {widgets} Lock Screen widgets, {days} measured days "
          f"(Scenarios/apps/nightguard.json{model}): reloads per widget in each local hour.\n")
    print("| local hour | " + " | ".join(f"{h:02d}" for h in range(24)) + " |")
    print("|---|" + "--:|" * 24)
    print("| reloads | " + " | ".join(f"{r:.1f}" for r in rates) + " |\n")
    print(f"- per day: {sum(rates):.1f} (the policy asks for 144)")
    print(f"- night (01:00-06:00): {night:.2f} an hour (#246: none at night)")
    print(f"- afternoon and evening (14:00-22:00): {evening:.2f} an hour, one every {60 / evening:.1f} min "
          f"(#336: one every 25 +- 5 min, {BAND[0]:.1f}-{BAND[1]:.1f} an hour)")
    print(f"- busiest hour: {peak:02d}:00, {rates[peak]:.2f} an hour, one every {60 / rates[peak]:.1f} min")
    if CHECK:
        bad = []
        if night >= 0.05:
            bad.append(f"night {night:.2f} an hour, not none")
        if not BAND[0] <= evening <= BAND[1]:
            bad.append(f"afternoon and evening {evening:.2f} an hour, outside {BAND[0]}-{BAND[1]}")
        if bad:
            sys.exit("Nightguard #336 not reproduced: " + "; ".join(bad))
        print("\nok: none at night, and one reload every 20-30 minutes in the afternoon and evening (#336)")


main()

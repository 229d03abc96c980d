#!/usr/bin/env python3
"""Writes the outputs the docs quote from the tool itself, so that no quoted
figure is typed by hand.

    python3 scripts/docs-outputs.py BIN            # rewrite the quoted blocks
    python3 scripts/docs-outputs.py BIN --check    # exit 1 if one is out of date
    python3 scripts/docs-outputs.py --ci-log LOG   # fill the CI figures from a .ci/run log

A quoted output is a fenced block between two comments, in README.md,
Scenarios/README.md and Reports/README.md:

    <!-- output: reloadbench run Scenarios/default.json -->
    ```
    (what the command prints on stdout)
    ```
    <!-- /output -->

The command (bash; it may span lines and use pipes to excerpt) runs in a scratch
folder holding a copy of Scenarios/, with `reloadbench` on the PATH as BIN. Exit
status 0 or 1 is a result (check's 1 is a finding); anything else fails.
`--check` compares with what is written, timings masked (a run's wall times and
rates are the machine's, not the tool's), and prints where they first differ; a
block whose only change is its timings is left as it was written.

CI figures (test counts, build and test times) are measurements of a whole
.ci/run, not of one command: inline spans `<!-- ci: NAME -->VALUE<!-- /ci -->`
and blocks `<!-- ci-block: NAME -->` ... `<!-- /ci-block -->` take them from a
.ci/run log (`bash .ci/run 2>&1 | tee ci.log`). Names: build_s (the release
build, seconds), swift_test_s (`swift test`, building included), tests,
suites, tests_s (the tests' own time), total_s, test_line (the last line
`swift test` prints), date (the log's date, from its file time).
"""
import datetime, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md", "Scenarios/README.md", "Reports/README.md"]
OUTPUT = re.compile(r"(<!-- output:(.*?)-->\n)(.*?)(<!-- /output -->)", re.S)
CI_SPAN = re.compile(r"(<!-- ci: (\w+) -->)(.*?)(<!-- /ci -->)", re.S)
CI_BLOCK = re.compile(r"(<!-- ci-block: (\w+) -->\n)(.*?)(<!-- /ci-block -->)", re.S)
# What a run measures of the machine: wall times and rates per second of wall time.
TIMINGS = [
    re.compile(r"\b[0-9][0-9.,]*\s?(?:ms|s)\b"),
    re.compile(r"\b[0-9][0-9.,]*[kM]? (?:widget-days|events|device-days)/s\b"),
    re.compile(r"Phases: .*"),
]


def masked(text):
    for pattern in TIMINGS:
        text = pattern.sub("T", text)
    return text


def first_difference(old, new):
    a, b = old.splitlines(), new.splitlines()
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "(the block ends)"
        y = b[i] if i < len(b) else "(the block ends)"
        if x != y:
            return f"line {i + 1} of the block:\n- {x[:160]}\n+ {y[:160]}"
    return "(only whitespace differs)"


def run(bin_path, command, scratch):
    env = dict(os.environ, PATH=os.path.join(scratch, ".bin") + os.pathsep + os.environ["PATH"])
    p = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=scratch, env=env,
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"docs-outputs: `{command}` exited {p.returncode}: {p.stderr.strip()[-400:]}")
    return p.stdout


def outputs(bin_path, check):
    stale = []
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(os.path.join(ROOT, "Scenarios"), os.path.join(scratch, "Scenarios"))
        os.mkdir(os.path.join(scratch, ".bin"))
        os.symlink(os.path.abspath(bin_path), os.path.join(scratch, ".bin", "reloadbench"))
        for doc in DOCS:
            path = os.path.join(ROOT, doc)
            text = open(path, encoding="utf-8").read()

            def replace(m):
                command = m.group(2).strip()
                fresh = "```\n" + run(bin_path, command, scratch).rstrip("\n") + "\n```\n"
                if masked(fresh) == masked(m.group(3)):
                    # Only timings differ: keep the written run's (no churn from a busy machine).
                    return m.group(0)
                if check:
                    stale.append(f"{doc}: `{command.splitlines()[0]}` is out of date, "
                                 + first_difference(m.group(3), fresh))
                return m.group(1) + fresh + m.group(4)

            new = OUTPUT.sub(replace, text)
            if not check and new != text:
                open(path, "w", encoding="utf-8").write(new)
                print(f"wrote {doc}")
    if stale:
        print("\n".join(stale))
        print("fix: python3 scripts/docs-outputs.py .build/release/reloadbench", file=sys.stderr)
        sys.exit(1)


def ci_figures(log_path):
    log = open(log_path, encoding="utf-8", errors="replace").read()
    steps = [(int(s), name) for s, name in re.findall(r"^== \[\s*(\d+) s\] (.*)$", log, re.M)]
    def start(prefix):
        return next(s for s, name in steps if name.startswith(prefix))
    # The first summary line is `swift test`'s (later steps test the example packages).
    line = re.findall(r"^.*(Test run with (\d+) tests in (\d+) suites? passed after ([0-9.]+) seconds\.)$", log, re.M)
    if not line or not steps:
        sys.exit(f"docs-outputs: {log_path} is not a passing .ci/run log")
    summary, tests, suites, seconds = line[0]
    test_line = "✔ " + summary
    total = re.findall(r"^== \[\s*\d+ s\] ok \((\d+) s\)$", log, re.M)
    figures = {
        "build_s": str(start("tests") - start("build")),
        "swift_test_s": str(start("smoke: default") - start("tests")),
        "tests": tests, "suites": suites, "tests_s": str(round(float(seconds))),
        "total_s": total[-1] if total else "?",
        "test_line": test_line,
        "date": datetime.date.fromtimestamp(os.path.getmtime(log_path)).isoformat(),
    }
    for doc in DOCS:
        path = os.path.join(ROOT, doc)
        text = open(path, encoding="utf-8").read()
        new = CI_SPAN.sub(lambda m: m.group(1) + figures[m.group(2)] + m.group(4), text)
        new = CI_BLOCK.sub(lambda m: m.group(1) + "```\n" + figures[m.group(2)] + "\n```\n" + m.group(4), new)
        if new != text:
            open(path, "w", encoding="utf-8").write(new)
            print(f"wrote {doc}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--ci-log":
        ci_figures(args[1])
    elif len(args) in (1, 2) and (len(args) == 1 or args[1] == "--check"):
        outputs(args[0], check=len(args) == 2)
    else:
        sys.exit(__doc__)

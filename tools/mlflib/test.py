# SPDX-License-Identifier: GPL-2.0
"""mlf test: the whole test suite, what CI runs.

For each preset (dev with gcc, asan and tsan with clang, and fuzz and
fuzz-tsan when clang's libFuzzer is there): configure and build through
ensure_built(), then ctest with the preset's sanitizer options. Of
fuzz-tsan the default run takes the tests only that build runs (label
fuzz-tsan: the concurrent target clean on every correct variant, the zoo's
scheduled bugs and their reproducers under TSan); the rest are the tsan
preset's tests again. --preset fuzz-tsan runs all of them. A preset that
fails does not stop the next one: CI should show every failure of a run,
not the first.
"""
import os
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ET

from . import common
from . import builds

DEFAULT_PRESETS = ["dev", "asan", "tsan"]
# presets whose default run takes only the tests of a ctest label
DEFAULT_LABELS = {"fuzz-tsan": "fuzz-tsan"}
JUNIT = "mlf-ctest.xml"


def libfuzzer_available(sanitizers="address,undefined"):
    """True if clang links a libFuzzer target with @sanitizers here."""
    with tempfile.TemporaryDirectory(prefix="mlf-probe-") as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w", encoding="utf-8") as f:
            f.write("int LLVMFuzzerTestOneInput(const unsigned char *d, "
                    "unsigned long n) { return 0; }\n")
        cmd = ["clang", "-fsanitize=fuzzer," + sanitizers, src,
               "-o", os.path.join(tmp, "probe")]
        try:
            proc = common.run(cmd, check=False, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        except OSError:
            return False
        return proc.returncode == 0


def default_presets():
    presets = list(DEFAULT_PRESETS)
    if libfuzzer_available():
        presets.append("fuzz")
    else:
        print("mlf test: clang cannot link libFuzzer targets, skipping the fuzz preset",
              flush=True)
    if libfuzzer_available("thread"):
        presets.append("fuzz-tsan")
    else:
        print("mlf test: clang cannot link libFuzzer targets with TSan, skipping the "
              "fuzz-tsan preset", flush=True)
    return presets


def junit_counts(path):
    """(passed, failed, skipped) from ctest's JUnit file, None if unreadable."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    passed = failed = skipped = 0
    for case in root.iter("testcase"):
        status = case.get("status", "run")
        if status in ("notrun", "disabled"):
            skipped += 1
        elif status == "fail" or case.find("failure") is not None:
            failed += 1
        else:
            passed += 1
    return passed, failed, skipped


def ctest_command(preset, build):
    """(ctest command, environment) for @build of @preset: the preset's own
    tree by its test preset; another (another tree, patches, variant) by
    --test-dir with the test preset's environment and timeout, which a
    test preset cannot be pointed elsewhere to give."""
    if os.path.abspath(build) == common.build_dir(preset):
        return ["ctest", "--preset", preset], None
    tests = {p["name"]: p for p in builds.load_presets().get("testPresets", [])}
    env, timeout, name = {}, None, preset
    while name:
        p = tests.get(name, {})
        for k, v in p.get("environment", {}).items():
            env.setdefault(k, v.replace("${sourceDir}", common.ROOT))
        timeout = timeout or p.get("execution", {}).get("timeout")
        name = p.get("inherits")
        name = name[0] if isinstance(name, list) else name
    cmd = ["ctest", "--test-dir", build]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    return cmd, env


def test_preset(preset, extra, label=None, variant=None, code=None):
    """Build and test one preset (with @label, only the tests of that
    ctest label); returns a result dict for the summary."""
    start = time.monotonic()
    result = {"preset": preset, "passed": 0, "failed": 0, "skipped": 0}
    if label:
        extra = ["-L", label] + list(extra)
        result["label"] = label
    try:
        build = builds.ensure_built(preset, variant, code=code)
    except common.MlfError as e:
        result.update(status="build failed", detail=str(e),
                      seconds=time.monotonic() - start)
        return result
    junit = os.path.join(build, JUNIT)
    if os.path.exists(junit):
        os.unlink(junit)
    # --output-junit is relative to the build tree; the preset adds the
    # sanitizer options and the per-test timeout.
    # --no-tests=error: a filter that matches nothing is a failure, not a pass
    cmd, env = ctest_command(preset, build)
    cmd += ["-j2", "--output-on-failure", "--no-tests=error", "--output-junit", JUNIT]
    proc = common.run(cmd + list(extra), cwd=common.ROOT, env=env, check=False)
    counts = junit_counts(junit)
    if counts:
        result["passed"], result["failed"], result["skipped"] = counts
    if counts is not None and not sum(counts):
        result.update(status="no tests ran", detail="ctest ran no test (exit status %d)"
                      % proc.returncode, seconds=time.monotonic() - start)
        result["failed"] += 1
        return result
    if proc.returncode == 0:
        result["status"] = "ok"
    else:
        result["status"] = "tests failed"
        if not counts or not result["failed"]:
            # ctest failed without a failing test: no tests, bad filter, ...
            result["failed"] += 1
            result["detail"] = "ctest exited with status %d" % proc.returncode
    result["seconds"] = time.monotonic() - start
    return result


def run(args, extra):
    if args.preset:
        presets = args.preset
    elif args.quick:
        presets = ["dev"]
    else:
        presets = default_presets()
    for p in presets:
        builds.check_preset(p)
    code = builds.Code.of(args)
    code.check()
    total_start = time.monotonic()
    # the default run: of some presets only their own tests
    labels = {} if args.preset else DEFAULT_LABELS
    results = [test_preset(p, extra, labels.get(p), args.variant, code) for p in presets]
    print("\nmlf test summary:")
    failed_presets = 0
    for r in results:
        line = "  %-9s %-13s %4d passed, %d failed, %d skipped  (%.0f s)" % (
            r["preset"], r["status"], r["passed"], r["failed"], r["skipped"],
            r["seconds"])
        if r.get("label"):
            line += "  label %s" % r["label"]
        if r.get("detail"):
            line += "  " + r["detail"]
        print(line)
        if r["status"] != "ok":
            failed_presets += 1
    passed = sum(r["passed"] for r in results)
    failed = sum(r["failed"] for r in results) + sum(
        1 for r in results if r["status"] == "build failed")
    skipped = sum(r["skipped"] for r in results)
    print("mlf test: %d preset%s in %.0f s, %s" % (
        len(results), "" if len(results) == 1 else "s", time.monotonic() - total_start,
        "all passed" if not failed_presets else "%d failed" % failed_presets))
    # The plain closing line CI reads.
    print("tests: %d passed, %d failed, %d skipped" % (passed, failed, skipped), flush=True)
    return 1 if failed_presets else 0


def register(subparsers):
    p = subparsers.add_parser(
        "test", help="build and run the whole test suite (what CI runs)",
        description="Configure, build and ctest the dev (gcc), asan (clang ASan+UBSan) "
                    "and tsan (clang TSan) presets, and fuzz and fuzz-tsan when clang's "
                    "libFuzzer is available (of fuzz-tsan the tests labelled fuzz-tsan, "
                    "the ones only that build runs). With --tree / --patches, the same on "
                    "that code under test (build/<preset>-tree-<hash>). Arguments mlf does "
                    "not know go to ctest (for example -R list or -V).")
    p.add_argument("--preset", action="append",
                   help="test only this preset, all of its tests (repeatable; default dev, "
                        "asan, tsan, fuzz, fuzz-tsan)")
    p.add_argument("--quick", action="store_true",
                   help="only the dev preset, for a fast check before a commit")
    builds.add_code_arguments(p, "with --patches, the one seed level the build has (default "
                                 "v6.12); else the build's default variant (every level "
                                 "whose patches apply to the tree is tested)")
    p.set_defaults(func=run, passthrough=True)

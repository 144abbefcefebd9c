#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""docs/checks.md and the check names the sources report stay in step.

Every name `tools/mlf list checks` finds (list.check_names(): the C
sources, and list.sanitizer_names(): race) must have a section of its own
in docs/checks.md (a heading "### `name`"), and every section must name a
check that something still reports. The finder itself is run on made-up
sources with every way a check is named (a constructor, mlf_fail_simple(),
a helper that hands its parameter on, a ternary, a variable, a table), so
that a form it misses fails here rather than leaving the doc test blind
to it; and the comparison is run on a made-up doc with a section missing
and one too many. Run standalone: python3 tests/tools/test_checks_doc.py
"""
import os
import re
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from mlflib import list as mlf_list  # noqa: E402

DOC = os.path.join(ROOT, "docs", "checks.md")
SECTION = re.compile(r"^### `([^`]+)`\s*$", re.M)


def documented(text):
    """The check names that @text (docs/checks.md) has a section for."""
    return SECTION.findall(text)


def differences(reported, text):
    """(reported but not documented, documented but not reported,
    documented twice) of @reported names against the doc @text."""
    names = documented(text)
    twice = sorted({n for n in names if names.count(n) > 1})
    return (sorted(set(reported) - set(names)), sorted(set(names) - set(reported)), twice)


# made-up sources: each form of naming a check, and look-alikes that are not
FAKE_SOURCES = {
    "src/kernel/report.h": """
void mlf_failure_init(struct mlf_failure *f, const char *check);
void mlf_failure_at(struct mlf_failure *f, const char *check, int node,
		    int gen, int bin, int memcg);
void mlf_fail_simple(const char *check, const char *fmt, ...);
""",
    "src/kernel/report.c": """
void mlf_fail_simple(const char *check, const char *fmt, ...)
{
	struct mlf_failure f;

	mlf_failure_init(&f, check);
	mlf_fail(&f);
}
""",
    "src/check/direct.c": """
/* mlf_failure_at(f, "in.a.comment", 0, 0, 0, 0) is no report */
bool check_a(struct mlf_failure *f)
{
	mlf_failure_at(f, "direct.at", 0, MLF_NONE,
		       MLF_NONE, MLF_NONE);
	mlf_failure_init(f, "direct.init");
	mlf_failure_msg(f, "not.a.check %s", "nor.this");
	printf("%s", "nor.that");
	return false;
}
""",
    "src/check/helper.c": """
static bool fail(struct mlf_failure *f, const char *check, int slot,
		 const char *what)
{
	mlf_failure_at(f, check, 0, 0, 0, slot);
	return false;
}

static bool twice(struct mlf_failure *f, const char *name)
{
	return fail(f, name, 1, "what.ever");
}

bool check_b(struct mlf_failure *f, bool x)
{
	if (x)
		return fail(f, "helper.one", 0, "not.this");
	return twice(f, "helper.two");
}
""",
    "src/check/other.c": """
/* a static function of the same name elsewhere: no reporter */
static bool fail(const char *why, const char *check)
{
	return printf("%s %s", why, check);
}

void other(void)
{
	fail("not.reported", "nor.this.one");
}
""",
    "src/kernel/choice.c": """
static const char *const names[] = { "table.first", "table.second" };

void report(int kind, bool reader)
{
	const char *check;

	if (kind)
		check = kind > 1 ? "var.then" : "var.else";
	else
		check = "var.plain";
	mlf_fail_simple(check, "at %d", kind);
	mlf_fail_simple(reader ? "ternary.reader" : "ternary.writer", "stuck");
	mlf_fail_simple(names[kind & 1], "from a table");
}
""",
    "src/kernel/macro.h": """
void mlf_vm_warn(const char *check, const char *cond);
#define VM_WARN_ON(cond) ({ if (cond) \\
		mlf_vm_warn("macro.warn", #cond); })
""",
    "src/kernel/macro.c": """
void mlf_vm_warn(const char *check, const char *cond)
{
	struct mlf_failure f;

	mlf_failure_init(&f, check);
}
""",
    "fuzz/target.c": """
void target(void)
{
	mlf_fail_simple(
		"fuzz.target",
		"a name on the line after the call");
}
""",
    "tests/test_x.c": """
void test(void) { mlf_fail_simple("tests.are.not.sources", "x"); }
""",
}

FAKE_NAMES = {
    "direct.at": ["src/check/direct.c"],
    "direct.init": ["src/check/direct.c"],
    "helper.one": ["src/check/helper.c"],
    "helper.two": ["src/check/helper.c"],
    "var.then": ["src/kernel/choice.c"],
    "var.else": ["src/kernel/choice.c"],
    "var.plain": ["src/kernel/choice.c"],
    "ternary.reader": ["src/kernel/choice.c"],
    "ternary.writer": ["src/kernel/choice.c"],
    "table.first": ["src/kernel/choice.c"],
    "table.second": ["src/kernel/choice.c"],
    "macro.warn": ["src/kernel/macro.h"],
    "fuzz.target": ["fuzz/target.c"],
}


class FinderTest(unittest.TestCase):
    """list.check_names() on made-up sources: every form, nothing else."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mlf-test-checks-")
        for rel, text in FAKE_SOURCES.items():
            path = os.path.join(self.tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_every_form_and_nothing_else(self):
        roots = [os.path.join(self.tmp, d) for d in mlf_list.SOURCE_DIRS]
        found = mlf_list.check_names(roots, root=self.tmp)
        self.assertEqual(found, dict(sorted(FAKE_NAMES.items())))


class ComparisonTest(unittest.TestCase):
    """differences() sees a missing section, a stale one and a repeated one."""

    DOC = "# Checks\n\n### `a.one`\n\ntext\n\n### `a.two`\n\n## Group\n\n### `a.two`\n"

    def test_missing_stale_and_twice(self):
        missing, stale, twice = differences(["a.one", "a.three"], self.DOC)
        self.assertEqual(missing, ["a.three"])
        self.assertEqual(stale, ["a.two"])
        self.assertEqual(twice, ["a.two"])

    def test_in_step(self):
        self.assertEqual(differences(["a.one", "a.two"], self.DOC.replace(
            "## Group\n\n### `a.two`\n", "")), ([], [], []))


class DocTest(unittest.TestCase):
    """docs/checks.md against what the repository's sources report."""

    def test_every_reported_name_is_documented_and_every_documented_one_reported(self):
        reported = list(mlf_list.check_names()) + list(mlf_list.sanitizer_names())
        self.assertGreater(len(reported), 40, "the finder finds next to nothing")
        with open(DOC, encoding="utf-8") as f:
            text = f.read()
        missing, stale, twice = differences(reported, text)
        self.assertEqual(missing, [], "reported (tools/mlf list checks) but with no "
                         "\"### `name`\" section in docs/checks.md")
        self.assertEqual(stale, [], "a section of docs/checks.md for a check that "
                         "nothing reports any more")
        self.assertEqual(twice, [], "more than one section in docs/checks.md")


if __name__ == "__main__":
    unittest.main()

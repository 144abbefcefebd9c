#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of kernel/extract.py, the C-aware cutter.

Without a tree: the tokenizer and the cuts on small sources written to trip
a line-based cutter (braces in comments, strings and chars, preprocessor
lines, added helpers and fields), and the one-line errors. With a tree
(--tree: the build's kernel/base/, or any tree): it cuts with no seed
feature, with the seed series up to p1-5 (kernel/series/seed/, by
kernel/patch_tree.py) it cuts with TAIL_CACHE / YOUNG_SKIP / RESCHED, and
a call the shim lacks is named in one line by the compile check.
"""
import argparse
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "kernel"))
sys.path.insert(0, HERE)
import extract  # noqa: E402
import patch_tree  # noqa: E402

TREE = None

VMSCAN = r'''
static int before(void) { return '}'; }
/* "{" in a comment */
#define NOT_A_BRACE {
/******************************************************************************
 *                          memcg LRU
 ******************************************************************************/

/* see the comment on MEMCG_NR_GENS */
enum {
	MEMCG_LRU_NOP,
	MEMCG_LRU_YOUNG,
};

static void helper_added_by_a_patch(void)
{
	const char *s = "}}}";	/* } */
	(void)s;
}

static void lru_gen_rotate_memcg(struct lruvec *lruvec, int op)
{
	int old = 0, new = 1;
	spin_lock_irqsave(&lock, flags);
	if (op == MEMCG_LRU_YOUNG && old == new)
		goto unlock;
	bin = get_random_u32_below(MEMCG_NR_BINS);
unlock:
	spin_unlock_irqrestore(&lock, flags);
}

#ifdef CONFIG_MEMCG
void lru_gen_online_memcg(struct mem_cgroup *memcg) { if (1) { } }
#endif /* CONFIG_MEMCG */

/******************************************************************************
 *                          the eviction
 ******************************************************************************/

static bool should_abort_scan(struct lruvec *lruvec, struct scan_control *sc)
{
	return false;
}

static int shrink_one(struct lruvec *lruvec, struct scan_control *sc)
{
	return 0;
}

static void set_initial_priority(struct pglist_data *pgdat, struct scan_control *sc)
{
}

static void shrink_many(struct pglist_data *pgdat, struct scan_control *sc);

static void lru_gen_shrink_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	shrink_many(pgdat, sc);
}

static void shrink_many(struct pglist_data *pgdat, struct scan_control *sc)
{
	char c = '{';
	cond_resched();
}

void lru_gen_init_pgdat(struct pglist_data *pgdat)
{
	int i, j;
	struct lru_gen_mm_state *mm_state = get_mm_state(pgdat);

	spin_lock_init(&pgdat->memcg_lru.lock);
	mm_state->x = 0;
	for (i = 0; i < MEMCG_NR_GENS; i++) {
		for (j = 0; j < MEMCG_NR_BINS; j++)
			INIT_HLIST_NULLS_HEAD(&pgdat->memcg_lru.fifo[i][j], i);
	}
}
#define get_memcg_gen(seq)	((seq) % MEMCG_NR_GENS)
#define get_memcg_bin(bin)	((bin) % MEMCG_NR_BINS)
'''

MMZONE = r'''
struct lru_gen_folio {
	unsigned long max_seq;
	struct list_head folios[4][2][5];
	/* the memcg generation */
	u8 gen;
	u8 seg;
	u8 bin;
	int bits : 3;
	struct hlist_nulls_node list;
};
#define MEMCG_NR_GENS	3
#define MEMCG_NR_BINS	8
struct lru_gen_memcg {
	unsigned long seq;
	unsigned long nr_memcgs[MEMCG_NR_GENS];
	struct hlist_nulls_head	fifo[MEMCG_NR_GENS][MEMCG_NR_BINS];
	struct hlist_nulls_node *tail[MEMCG_NR_GENS][MEMCG_NR_BINS];
	spinlock_t lock;
};
'''


MEMCONTROL = r'''
static void mem_cgroup_css_offline(struct cgroup_subsys_state *css)
{
	lru_gen_offline_memcg(mem_cgroup_from_css(css));
}

static void mem_cgroup_css_released(struct cgroup_subsys_state *css)
{
	lru_gen_release_memcg(mem_cgroup_from_css(css));
}
'''


def texts(vmscan=VMSCAN, mmzone=MMZONE):
    return {extract.VMSCAN: vmscan, extract.MMZONE: mmzone,
            extract.LIST_NULLS: "", extract.RCULIST_NULLS: "",
            extract.MEMCONTROL: MEMCONTROL}


class Cutter(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp(prefix="mlf-extract-")

    def tearDown(self):
        shutil.rmtree(self.out)

    def read(self, name):
        with open(os.path.join(self.out, name), encoding="utf-8") as f:
            return f.read()

    def test_tokens_skip_comments_strings_chars(self):
        toks = extract.tokenize('a = "{"; /* } */ b = \'}\';\n#define X {\nc;')
        kinds = [(t.kind, t.text) for t in toks if t.kind in ("punct",) and t.text in "{}"]
        self.assertEqual(kinds, [])
        self.assertEqual([t.kind for t in toks if t.kind == "pp"], ["pp"])

    def test_cut(self):
        feats = extract.generate(texts(), self.out)
        c, h = self.read("mlf_tree_vmscan.c"), self.read("mlf_tree_gen.h")
        self.assertIn("helper_added_by_a_patch", c)
        self.assertIn("#ifdef CONFIG_MEMCG", c)
        self.assertIn("#endif /* CONFIG_MEMCG */", c)
        self.assertNotIn("static int before", c)
        self.assertNotIn("MEMCG_LRU_NOP", c)      # the enum moved to the header
        self.assertIn("MEMCG_LRU_NOP", h)
        self.assertIn("cond_resched();", c)      # the definition, not the prototype
        self.assertIn("spin_lock_init(&pgdat->memcg_lru.lock);", c)
        self.assertIn("int i, j;", c)
        self.assertNotIn("mm_state", c)          # not the memcg part
        self.assertIn("u8 bin;", h)
        self.assertNotIn("max_seq", h)
        self.assertNotIn("bits", h)
        self.assertIn("tail[MEMCG_NR_GENS][MEMCG_NR_BINS]", h)
        self.assertEqual(set(feats), {"CONFIG_LRU_GEN_TAIL_CACHE", "CONFIG_LRU_GEN_YOUNG_SKIP",
                                      "CONFIG_LRU_GEN_LOCKRAND", "CONFIG_LRU_GEN_RESCHED"})

    def test_lines_point_into_the_tree(self):
        extract.generate(texts(), self.out)
        c = self.read("mlf_tree_vmscan.c").splitlines()
        at = next(i for i, l in enumerate(c) if l.startswith("#line") and "vmscan" in l)
        first = int(c[at].split()[1])
        for i, line in enumerate(c[at + 1:]):
            if line.startswith("#line"):
                break
            if "lru_gen_rotate_memcg(struct" in line:
                self.assertEqual(VMSCAN.splitlines()[first + i - 1], line)
                break
        else:
            self.fail("rotate not found")

    def test_no_banner(self):
        with self.assertRaises(extract.CutError) as e:
            extract.generate(texts(VMSCAN.replace("the eviction", "eviction")), self.out)
        self.assertEqual(str(e.exception), 'mm/vmscan.c: no "the eviction" banner')

    def test_missing_member(self):
        with self.assertRaises(extract.CutError) as e:
            extract.generate(texts(mmzone=MMZONE.replace("u8 seg;", "")), self.out)
        self.assertEqual(str(e.exception),
                         "include/linux/mmzone.h: struct lru_gen_folio has no 'seg' member")

    def test_no_features(self):
        plain = VMSCAN.replace("old == new", "old").replace("cond_resched();", "")
        plain = plain.replace("\tbin = get_random_u32_below(MEMCG_NR_BINS);\n", "")
        plain = plain.replace("int old = 0", "int bin = get_random_u32_below(8), old = 0")
        self.assertEqual(extract.generate(texts(plain, MMZONE.replace("u8 bin;", "")), self.out), {})


class Tree(unittest.TestCase):
    """On a real tree (skipped without one)."""

    @classmethod
    def setUpClass(cls):
        if not TREE:
            raise unittest.SkipTest("no kernel tree")
        cls.work = tempfile.mkdtemp(prefix="mlf-extract-tree-")
        cls.cache = os.path.join(cls.work, "cache")
        cls.texts = extract.read_tree(TREE, cls.cache)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work)

    def cut(self, tree_texts, name):
        out = os.path.join(self.work, name)
        feats = extract.generate(tree_texts, out)
        return feats, out

    def test_6_12(self):
        feats, out = self.cut(self.texts, "plain")
        self.assertEqual(feats, {})
        extract.check(os.environ.get("CC", "cc"), out)

    def test_seed_series(self):
        dest = os.path.join(self.work, "seed")
        files, adapt = patch_tree.read_series(
            os.path.join(os.path.dirname(HERE), "..", "kernel", "series", "seed", "series"), "p1-5")
        patch_tree.make(dest, lambda d: extract.copy_tree(TREE, d, self.cache),
                        [(patch_tree.load(files), None, adapt)], log=lambda s: None)
        feats, out = self.cut(extract.read_tree(dest, self.cache), "seed-out")
        self.assertEqual(set(feats), {"CONFIG_LRU_GEN_TAIL_CACHE", "CONFIG_LRU_GEN_YOUNG_SKIP",
                                      "CONFIG_LRU_GEN_RESCHED"})
        with open(os.path.join(out, "mlf_tree_vmscan.c"), encoding="utf-8") as f:
            self.assertIn("static void lru_gen_add_memcg", f.read())
        extract.check(os.environ.get("CC", "cc"), out)

    def test_shim_lacks(self):
        t = dict(self.texts)
        t[extract.VMSCAN] = t[extract.VMSCAN].replace(
            "\tnew = old = lruvec->lrugen.gen;\n",
            "\tnew = old = lruvec->lrugen.gen;\n\tmem_cgroup_flush_stats(NULL);\n", 1)
        _, out = self.cut(t, "lacks")
        with self.assertRaises(extract.CutError) as e:
            extract.check(os.environ.get("CC", "cc"), out)
        self.assertRegex(str(e.exception),
                         r"^the tree's code needs 'mem_cgroup_flush_stats', which the shim lacks "
                         r"\(mm/vmscan\.c:\d+")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--tree")
    args, rest = p.parse_known_args()
    TREE = args.tree
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)

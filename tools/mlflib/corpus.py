# SPDX-License-Identifier: GPL-2.0
"""mlf corpus: write the seed corpora, deterministically.

Every target's seeds are written here, by its generator (GENERATORS, which
must name exactly the targets of fuzz/targets.json), from a module per
target (tools/mlflib/seeds_<target>.py). A traced target's seed is written
as a trace, corpus/<target>/<name>.trace, and encoded by mlf-trace into its
bytes, corpus/<target>/<name>; the replay driver and the fuzzers skip
*.trace. trace_parser seeds are trace text themselves (no .trace suffix,
since that text is the input), nulls_list's bytes in its own format.
Files a generator does not write are never touched.
"""
import filecmp
import os
import tempfile

from . import builds
from . import common
from . import seeds_concurrent
from . import seeds_memcg_lru
from . import seeds_nulls_list
from . import seeds_reclaim
from . import seeds_trace_parser
from . import targets


def gen_traced(seeds, out, mlf_trace):
    """Each seed's trace <name>.trace and its bytes <name>, encoded by mlf-trace."""
    os.makedirs(out, exist_ok=True)
    written = []
    for name, make in seeds.items():
        trace = os.path.join(out, name + ".trace")
        common.write_if_changed(trace, make().text())
        common.run([mlf_trace, "encode", trace, "-o", os.path.join(out, name), "--force"])
        written += [name, name + ".trace"]
    return written


def gen_files(files, out):
    """Each of @files ({name: text or bytes}) as corpus/<target>/<name>."""
    os.makedirs(out, exist_ok=True)
    for name, data in files.items():
        common.write_if_changed(os.path.join(out, name), data)
    return list(files)


# target: its generator (out, mlf_trace) -> the names it wrote
GENERATORS = {
    "memcg_lru": lambda out, t: gen_traced(seeds_memcg_lru.SEEDS, out, t),
    "trace_parser": lambda out, t: gen_files(seeds_trace_parser.files(), out),
    "nulls_list": lambda out, t: gen_files(seeds_nulls_list.files(), out),
    "concurrent": lambda out, t: gen_traced(seeds_concurrent.SEEDS, out, t),
    "reclaim": lambda out, t: gen_traced(seeds_reclaim.SEEDS, out, t),
}


def check_generators():
    """A one-line MlfError unless GENERATORS has exactly the table's targets."""
    names = targets.names()
    missing = [t for t in names if t not in GENERATORS]
    unknown = [t for t in GENERATORS if t not in names]
    if missing or unknown:
        raise common.MlfError("tools/mlf corpus: %s (fuzz/targets.json has: %s)" % (
            "; ".join(["no seeds generator for " + ", ".join(missing)] * bool(missing) +
                      ["a generator for no target: " + ", ".join(unknown)] * bool(unknown)),
            ", ".join(names)))


def stale_files(written_dir, dest, names):
    """The files of @names that @dest lacks or holds other bytes of than
    @written_dir, as corpus/... paths."""
    out = []
    for name in names:
        mine = os.path.join(dest, name)
        if not os.path.exists(mine) or not filecmp.cmp(
                mine, os.path.join(written_dir, name), shallow=False):
            out.append(os.path.relpath(mine, common.ROOT))
    return out


def run(args, extra):
    check_generators()
    if args.target:
        if args.target not in targets.names():
            raise common.MlfError("unknown target %r (have: %s)"
                                  % (args.target, ", ".join(targets.names())))
        chosen = [args.target]
    else:
        chosen = targets.names()
    mlf_trace = None
    if any(t in targets.with_trace() for t in chosen):
        # MLF_TRACE: a build's own mlf-trace (ctest corpus/up-to-date), so
        # that a test does not build the dev tree under itself
        mlf_trace = os.environ.get("MLF_TRACE") or builds.binary(
            builds.ensure_built("dev", targets=["mlf-trace"]), "mlf-trace")
    stale = []
    for target in chosen:
        dest = os.path.join(common.CORPUS_DIR, target)
        if not args.check:
            written = GENERATORS[target](dest, mlf_trace)
            print("corpus/%s: %d files" % (target, len(written)))
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, target)
            stale += stale_files(out, dest, GENERATORS[target](out, mlf_trace))
    if stale:
        raise common.MlfError("out of date (run tools/mlf corpus): " + ", ".join(stale))
    if args.check:
        print("corpus: up to date (%s)" % ", ".join(chosen))
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "corpus", help="write the seed corpora (corpus/<target>/)",
        description="Write each target's seeds with its generator (tools/mlflib/"
                    "seeds_<target>.py; a traced target's: <name>.trace and its bytes "
                    "<name>). Deterministic; other files in corpus/ are left alone.")
    p.add_argument("--target", help="one target (default: every target)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; fail if a target's generator, run into a scratch "
                        "directory, would write something else")
    p.set_defaults(func=run)

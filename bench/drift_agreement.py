#!/usr/bin/env python3
"""Random pins in real repositories, and an independent check of `fieldnotes sources drift`.

    bench/drift_agreement.py generate SITE N URL=GITDIR [URL=GITDIR ...] [--seed S]
        writes a fieldnotes site in SITE whose notes hold N random pins, spread over the
        repositories: a random commit (most reachable from the default branch, one in ten
        from other refs such as pull requests), a random text file at it, and random lines
        (one range of 1-40 lines; one pin in ten two ranges; one in ten the whole file).
        SITE/pins.json lists them.
    bench/drift_agreement.py reference SITE
        checks every pin of SITE/pins.json on its own, commit by commit (below), into
        SITE/reference.json.
    bench/drift_agreement.py compare SITE DRIFT.json
        compares `fieldnotes sources drift --format json` with the reference: the agreement
        figure, then every disagreement.

The reference follows the pinned *block*, not a file, and shares no code with drift: from
the mainline commit where the pinned commit joins the default branch (itself; the first
mainline commit that has it, found by bisecting with `git merge-base --is-ancestor`; for a
commit on no branch of it, the one holding its merge base), it lists the commits that touch
the followed file (`git log --first-parent -- PATH`) and takes them one by one, asking each
what it did to the file (its own `git diff-tree -M`: edited, renamed, deleted) and reading
the file before and after it. When the block was in the file before a commit and is not
after it, and the file after it does not hold at least half of the block's lines together
(the block was edited there), it searches every file that commit changed, and the copies
made of the file before (`git diff-tree -C`), and if one holds the block, follows that file
instead. At HEAD: the block at the same lines of the pinned file is unchanged; found
elsewhere, moved; the followed file there without the block, changed; the followed file
deleted, gone. Blocks with fewer than 20 characters that are not white space are only
looked for in the followed file (as drift does: `}` could be anywhere).
"""
import json
import os
import random
import subprocess
import sys

DISTINCTIVE = 20


class Git:
    def __init__(self, git_dir):
        self.git_dir = git_dir
        self.batch = subprocess.Popen(
            ["git", "--git-dir", git_dir, "cat-file", "--batch"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.memo = {}

    def run(self, *args, ok=(0,)):
        out = subprocess.run(["git", "--git-dir", self.git_dir, *args],
                             capture_output=True)
        if out.returncode not in ok:
            raise RuntimeError(f"git {args}: {out.stderr.decode()}")
        return out.stdout.decode("utf-8", "replace"), out.returncode

    def out(self, *args):
        return self.run(*args)[0]

    def blob(self, commit, path):
        """The lines of path at commit, or None when it is not a file there."""
        name = f"{commit}:{path}"
        if name in self.memo:
            return self.memo[name]
        self.batch.stdin.write(name.encode() + b"\n")
        self.batch.stdin.flush()
        header = self.batch.stdout.readline().decode().split()
        lines = None
        if len(header) == 3:
            data = self.batch.stdout.read(int(header[2]) + 1)[:-1]
            if header[1] == "blob":
                lines = data.decode("utf-8", "replace").splitlines()
        if len(self.memo) > 20000:
            self.memo.clear()
        self.memo[name] = lines
        return lines


def text_files(git, commit):
    files = []
    for line in git.out("ls-tree", "-r", "-l", commit).splitlines():
        meta, path = line.split("\t", 1)
        _mode, kind, _oid, size = meta.split()
        if kind == "blob" and size.isdigit() and 0 < int(size) < 300_000:
            if all(c.isprintable() for c in path) and not path.startswith("/"):
                files.append(path)
    return files


def generate(site, n, repos, seed):
    rng = random.Random(seed)
    pins = []
    per_repo = [n // len(repos) + (1 if i < n % len(repos) else 0) for i in range(len(repos))]
    for (url, git_dir), count in zip(repos, per_repo):
        git = Git(git_dir)
        main = git.out("rev-list", "HEAD").split()
        others = git.out("rev-list", "--all", "--not", "HEAD").split()
        trees = {}
        while count > 0:
            pool = others if others and rng.random() < 0.1 else main
            commit = rng.choice(pool)
            if commit not in trees:
                trees[commit] = text_files(git, commit)
            if not trees[commit]:
                continue
            path = rng.choice(trees[commit])
            lines = git.blob(commit, path)
            if not lines or "\0" in "".join(lines[:50]):
                continue
            kind = rng.random()
            if kind < 0.1:
                ranges = []
            else:
                ranges = []
                for _ in range(2 if kind > 0.9 else 1):
                    start = rng.randint(1, len(lines))
                    if ranges and start <= ranges[-1][1]:
                        continue
                    length = min(int(rng.expovariate(1 / 8)) + 1, 40)
                    ranges.append((start, min(start + length - 1, len(lines))))
                ranges.sort()
            pins.append({"url": url, "gitDir": git_dir, "commit": commit, "file": path,
                         "ranges": ranges})
            count -= 1
    write_site(site, pins)


def write_site(site, pins):
    os.makedirs(f"{site}/content/research", exist_ok=True)
    os.makedirs(f"{site}/content/clients", exist_ok=True)
    os.makedirs(f"{site}/content/capabilities", exist_ok=True)
    with open(f"{site}/site.yaml", "w") as f:
        f.write("title: Pins\nbaseUrl: https://pins.example\ndescription: Random pins.\n"
                "specVersions:\n  - id: 2025-03-26\n    date: 2025-03-26\n"
                "capabilityGroups:\n  - id: transports\n    title: Transports\n"
                "kinds:\n  - id: default-behaviour\n    title: Default behaviour\n")
    with open(f"{site}/content/capabilities/transports.sse.md", "w") as f:
        f.write("---\nid: transports.sse\ntitle: SSE\ngroup: transports\n---\n\nSSE.\n")
    with open(f"{site}/content/clients/c.md", "w") as f:
        f.write("---\nid: c\ntitle: C\nvendor: V\nhomepage: https://c.example\n---\n\nC.\n")
    per_note = 10
    for n in range(0, len(pins), per_note):
        sources = ""
        for i, pin in enumerate(pins[n:n + per_note]):
            path = pin["file"]
            if pin["ranges"]:
                path += ":" + ",".join(f"{a}-{b}" if a != b else f"{a}" for a, b in pin["ranges"])
            pin["note"] = f"pins-{n // per_note:05}"
            pin["position"] = i
            pin["path"] = path
            sources += (f"  - url: {pin['url']}\n    title: pin {n + i}\n"
                        f"    commit: {pin['commit']}\n    path: {json.dumps(path)}\n"
                        f"    date: 2025-01-01\n")
        with open(f"{site}/content/research/pins-{n // per_note:05}.md", "w") as f:
            f.write(f"---\nid: pins-{n // per_note:05}\ntitle: Pins {n}\nkind: default-behaviour\n"
                    f"summary: Pins.\ncapabilities:\n  - transports.sse\nclients:\n  - c\n"
                    f"specVersions:\n  - 2025-03-26\nsources:\n{sources}status: current\n"
                    f"lastVerified: 2025-06-01\n---\n\nPins.\n")
    with open(f"{site}/pins.json", "w") as f:
        json.dump(pins, f, indent=1)


class Mainline:
    """The first-parent chain of HEAD, and where a commit joins it."""

    def __init__(self, git):
        self.git = git
        self.commits = git.out("rev-list", "--first-parent", "HEAD").split()[::-1]
        self.place = {c: i for i, c in enumerate(self.commits)}
        self.head = self.commits[-1]

    def is_ancestor(self, a, b):
        return self.git.run("merge-base", "--is-ancestor", a, b, ok=(0, 1))[1] == 0

    def entry(self, commit):
        if commit in self.place:
            return self.place[commit]
        if not self.is_ancestor(commit, self.head):
            base = self.git.run("merge-base", commit, self.head, ok=(0, 1))[0].strip()
            return self.entry(base) if base else None
        lo, hi = 0, len(self.commits) - 1          # the first mainline commit holding it
        while lo < hi:
            mid = (lo + hi) // 2
            if self.is_ancestor(commit, self.commits[mid]):
                hi = mid
            else:
                lo = mid + 1
        return lo


def find(lines, block, near):
    """1-based start of block in lines nearest to near, or None."""
    k = len(block)
    starts = [i + 1 for i in range(len(lines) - k + 1) if lines[i:i + k] == block]
    return min(starts, key=lambda s: (abs(s - near), s)) if starts else None


def contains(lines, block, whole):
    if lines is None:
        return False
    return lines == block if whole else find(lines, block, 1) is not None


def mostly(lines, block, near, whole):
    """Whether lines hold at least half of block's lines together: aligned (longest common
    subsequence) with the window around the place most of its rarer lines point to."""
    if lines is None:
        return False
    if whole:
        return True
    places = {}
    for i, line in enumerate(lines):
        places.setdefault(line, []).append(i)
    votes = {}
    for i, line in enumerate(block):
        at = places.get(line, [])
        if not line.strip() or len(at) > 64:
            continue
        for p in at:
            if p >= i:
                votes[p - i] = votes.get(p - i, 0) + 1
    if not votes:
        return False
    anchor = max(votes, key=lambda s: (votes[s], -abs(s - (near - 1)), -s))
    k = len(block)
    window = lines[max(anchor - k // 2, 0):min(anchor + k + k // 2, len(lines))]
    previous = [0] * (len(window) + 1)     # longest common subsequence, row by row
    for line in block:
        row = [0]
        for j, other in enumerate(window):
            row.append(previous[j] + 1 if line == other else max(previous[j + 1], row[j]))
        previous = row
    return previous[-1] * 2 >= k


def distinctive(block):
    return sum(len("".join(line.split())) for line in block) >= DISTINCTIVE


class Steps:
    """What each mainline commit did to a path, from its own `git diff-tree -M` (renames found
    over the whole tree), commit by commit."""

    def __init__(self, git):
        self.git = git
        self.memo = {}

    def touching(self, path, since):
        """The mainline commits after since whose diff names path, oldest first."""
        out = self.git.out("log", "--first-parent", "--format=%H", f"{since}..HEAD", "--", path)
        return out.split()[::-1]

    def diff(self, commit, *flags):
        """(status, old path, new path or None) for each file commit changed."""
        key = (commit, flags)
        if key not in self.memo:
            out = self.git.out("diff-tree", "-r", *flags, "--name-status", "-z", f"{commit}^1",
                               commit)
            tokens = [t for t in out.split("\0") if t]
            changes, i = [], 0
            while i < len(tokens):
                status = tokens[i][0]
                if status in "RC":
                    changes.append((status, tokens[i + 1], tokens[i + 2]))
                    i += 3
                else:
                    changes.append((status, tokens[i + 1], None))
                    i += 2
            self.memo[key] = changes
        return self.memo[key]

    def what(self, commit, path):
        """('M'|'A', path), ('R', new path) or ('D', None): what commit did to path, renames
        found as `git log -M` finds them."""
        changes = self.diff(commit, "-M")
        for status, old, new in changes:
            if status == "R" and old == path:
                return ("R", new)
        for status, old, new in changes:
            if status == "D" and old == path:
                return ("D", None)
        return ("M", path)

    def copies(self, commit, path):
        """Files commit copied from path (`-C`: git sees a copy of a file it edited)."""
        return [new for status, old, new in self.diff(commit, "-M", "-C")
                if status == "C" and old == path]

    def changed_files(self, commit):
        return [new or old for status, old, new in self.diff(commit, "-M") if status != "D"]


def follow_steps(steps, path, since):
    """(commit, path after it or None when deleted), for each mainline commit after since that
    touches the followed path, oldest first; a rename switches to the new path."""
    out = []
    while True:
        renamed = False
        for commit in steps.touching(path, since):
            kind, new = steps.what(commit, path)
            out.append((commit, new))
            if kind == "R":
                path, since, renamed = new, commit, True
                break
        if not renamed:
            return out


def track(git, steps, mainline, pin):
    """The reference verdict of one pin, per range, and the source's."""
    commit, file = pin["commit"], pin["file"]
    then = git.blob(commit, file)
    entry = mainline.entry(commit)
    if entry is None:
        return {"state": "unchecked"}
    joined = mainline.commits[entry]
    path, exists = file, True
    if joined != commit and git.blob(joined, file) is None:
        exists = False
        out = git.out("diff", "-M", "--name-status", "-z", "--diff-filter=R", commit, joined)
        tokens = [t for t in out.split("\0") if t]
        for s, old, new in zip(tokens[0::3], tokens[1::3], tokens[2::3]):
            if old == file:
                path, exists = new, True
    whole = not pin["ranges"]
    ranges = pin["ranges"] or [(1, len(then))]
    results = []
    for start, end in ranges:
        block = then if whole else then[start - 1:end]
        results.append(track_block(git, steps, mainline, joined, path, exists, block, start, whole, file))
    order = ["unchanged", "moved", "changed", "gone"]
    state = max((r["state"] for r in results), key=order.index)
    return {"state": state, "ranges": [] if whole else results,
            "file": results[0].get("file") if whole else None}


def track_block(git, steps, mainline, since, path, exists, block, start, whole, pinned_file):
    wide = distinctive(block)
    deleted_in = None
    copies = []
    hops = 0
    while True:
        switched = False
        for commit, new_path in follow_steps(steps, path, since):
            copies += steps.copies(commit, path)
            had_block = exists and contains(git.blob(f"{commit}^1", path), block, whole)
            if new_path is None:
                exists, deleted_in = False, commit
            else:
                path, exists, deleted_in = new_path, True, None
            if not had_block or contains(git.blob(commit, path) if exists else None, block, whole):
                continue
            # The block left the followed file here. Still mostly there, it was edited there;
            # else, is it in another file the commit changed?
            if exists and mostly(git.blob(commit, path), block, start, whole):
                continue
            if wide:
                for other in steps.changed_files(commit) + copies:
                    if other != path and contains(git.blob(commit, other), block, whole):
                        path, exists, deleted_in, since = other, True, None, commit
                        switched = True
                        hops += 1
                        break
            if switched:
                break
        if not switched:
            break
    result = place(git, mainline, path, exists, deleted_in, block, start, whole, pinned_file)
    result["hops"] = hops
    return result


def place(git, mainline, path, exists, deleted_in, block, start, whole, pinned_file):
    if not exists or git.blob(mainline.head, path) is None:
        return {"state": "gone", "goneIn": deleted_in}
    now = git.blob(mainline.head, path)
    if whole:
        if now == block:
            return {"state": "unchanged" if path == pinned_file else "moved", "file": path}
        return {"state": "changed", "file": path}
    found = find(now, block, start)
    if found is None:
        return {"state": "changed", "file": path}
    moved = path != pinned_file or found != start
    end = found + len(block) - 1
    return {"state": "moved" if moved else "unchanged", "file": path,
            "now": f"{found}-{end}" if end != found else f"{found}"}


def reference(site):
    pins = json.load(open(f"{site}/pins.json"))
    gits, out = {}, []
    for n, pin in enumerate(pins):
        git_dir = pin["gitDir"]
        if git_dir not in gits:
            git = Git(git_dir)
            gits[git_dir] = (git, Steps(git), Mainline(git))
        out.append(track(*gits[git_dir], pin))
        if n % 50 == 49:
            print(f"{n + 1} pins", file=sys.stderr)
    json.dump(out, open(f"{site}/reference.json", "w"), indent=1)


def compare(site, drift_json):
    pins = json.load(open(f"{site}/pins.json"))
    ref = json.load(open(f"{site}/reference.json"))
    drift = json.load(open(drift_json))["sources"]
    by_place = {}
    for s in drift:
        note = s["file"].rsplit("/", 1)[-1][:-3]
        by_place.setdefault(note, []).append(s)
    agree = same_state = 0
    counts = {}
    disagreements = []
    for pin, r in zip(pins, ref):
        d = by_place[pin["note"]][pin["position"]]
        key = (r["state"], d["state"])
        counts[key] = counts.get(key, 0) + 1
        ok = r["state"] == d["state"]
        same_state += ok
        if ok and r["state"] == "moved":
            if pin["ranges"]:
                # (a report from before ranges had a file of their own: the source's)
                ok = all(rr.get("file") == dr.get("file", d.get("fileNow"))
                         and rr.get("now") == dr.get("now")
                         for rr, dr in zip(r["ranges"], d["ranges"]))
            else:
                ok = r.get("file") == d.get("fileNow")
        agree += ok
        if not ok:
            disagreements.append((pin, r, d))
    n = len(pins)
    print(f"{n} pins: {agree} agree ({100 * agree / n:.1f}%), same state {same_state}"
          f" ({100 * same_state / n:.1f}%)")
    ranges = [x for r in ref for x in r.get("ranges", [])]
    other = sum(1 for pin, r in zip(pins, ref) for x in r.get("ranges", [])
                if x.get("file") and x["file"] != pin["file"])
    hopped = sum(1 for x in ranges if x.get("hops"))
    print(f"{len(ranges)} ranges: {other} now in another file than the pinned one,"
          f" {hopped} of them having left their file for another (split, copy, move)")
    print("reference -> drift counts:")
    for (a, b), c in sorted(counts.items()):
        print(f"  {a:9} -> {b:9} {c}")
    for pin, r, d in disagreements:
        print(f"\n{pin['gitDir'].split('/')[-2]} {pin['commit'][:10]} {pin['path']}")
        print(f"  reference: {json.dumps(r)}")
        ranges = [{k: x.get(k) for k in ('state', 'file', 'now', 'closest')} for x in d['ranges']]
        print(f"  drift:     {d['state']} fileNow={d.get('fileNow')} goneIn={d.get('goneIn')}"
              f" {json.dumps(ranges)} {d.get('reason') or ''}")


def main():
    args = sys.argv[1:]
    if args[:1] == ["generate"]:
        seed = 1
        if "--seed" in args:
            i = args.index("--seed")
            seed = int(args[i + 1])
            del args[i:i + 2]
        repos = [tuple(a.split("=", 1)) for a in args[3:]]
        generate(args[1], int(args[2]), repos, seed)
    elif args[:1] == ["reference"]:
        reference(args[1])
    elif args[:1] == ["compare"]:
        compare(args[1], args[2])
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()

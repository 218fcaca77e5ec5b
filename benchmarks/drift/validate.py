"""Check the drift corpus: every file loads, every case has every key, ids are unique, releases.txt covers every release named."""
import glob, json, os, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = ["id", "source", "form", "text", "kind", "package", "version", "symbol", "parameter", "change",
        "deprecated_in", "last_with", "first_without", "replacement", "expected", "module", "distributions", "verified"]
def norm(n): return re.sub(r"[-_.]+", "-", n).lower()
def main():
    rel = {l.strip() for l in open(os.path.join(HERE, "releases.txt")) if l.strip()}
    lines = [l.strip() for l in open(os.path.join(HERE, "releases.txt")) if l.strip()]
    errs = []
    if lines != sorted(set(lines)): errs.append("releases.txt not sorted/unique")
    ids = set(); n = 0
    for f in sorted(glob.glob(os.path.join(HERE, "*.json"))):
        for c in json.load(open(f, encoding="utf-8")):
            n += 1
            if list(c) != KEYS: errs.append(f"{f}: keys of {c.get('id')}")
            if c["id"] in ids: errs.append(f"duplicate id {c['id']}")
            ids.add(c["id"])
            need = []
            if c["kind"] == "api": need = [c["last_with"], c["first_without"], c["deprecated_in"]]
            elif c["kind"] == "inside": need = [c["version"]]
            for v in need:
                if v and f"{c['package']}=={v}" not in rel: errs.append(f"{c['id']}: {c['package']}=={v} not in releases.txt")
            if c["kind"] == "environment":
                for d in c["distributions"]:
                    if not any(r.startswith(norm(d) + "==") for r in rel): errs.append(f"{c['id']}: no release of {d}")
    print(f"{n} cases, {len(ids)} ids, {len(rel)} releases")
    if errs: print("\n".join(errs)); sys.exit(1)
if __name__ == "__main__": main()

#!/usr/bin/env python3
"""Pick N support cells at random, with a seed, for a review of cells against their sources.

Usage: python3 tools/pick_review_cells.py SEED > picked.jsonl   (needs PyYAML)
Every client cell whose status is not `unknown` is a candidate, less the cells of an earlier
review listed in `skip`; the 30 picked are printed one JSON object a line.
"""
import yaml, glob, random, sys, json
cells=[]
for f in sorted(glob.glob('content/clients/*.md')):
    t=open(f).read().split('---')[1]
    d=yaml.safe_load(t)
    for cap,c in (d.get('support') or {}).items():
        if not isinstance(c,dict): continue
        if c.get('status')=='unknown': continue
        cells.append((d['id'],cap,c))
skip={('cline','prompts.get'),('cline','resources.templates'),('continue','resources.templates'),('continue','authorization.oauth')}
cells=[c for c in cells if (c[0],c[1]) not in skip]
print(len(cells), file=sys.stderr)
random.seed(int(sys.argv[1]))
pick=random.sample(cells,30)
for cl,cap,c in pick:
    print(json.dumps({'client':cl,'cap':cap,'status':c.get('status'),'notes':c.get('notes'),'sources':c.get('sources'),'research':c.get('research')}))

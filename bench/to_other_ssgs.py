#!/usr/bin/env python3
"""Writes any fieldnotes site's research notes as a Hugo site and a Zola site, so that
`bench/compare.sh` can build the same notes with all three tools: the outside corpus
(`bench/outside_corpus.py`), the bundled site grown (`bench/grow_site.py`) or a site of your own.

Each note keeps its title, summary, clients, capabilities and related ids (as taxonomies and
extra data) and its body unchanged; the configuration and templates are the ones
`examples/gen_corpus --hugo/--zola` writes (a page per note with its taxonomy links, a list
per taxonomy term, highlighting on, no search index or feeds), so figures from either corpus
compare the same work.

    bench/to_other_ssgs.py SITE --hugo DIR --zola DIR

Python 3.8+ and PyYAML (Debian: python3-yaml).
"""

import argparse
import json
import os
import sys

import yaml

# The configuration and templates `examples/gen_corpus` writes (hugo.rs, zola.rs), verbatim.
HUGO_CONFIG = 'baseURL: https://corpus.example.org/\ntitle: Generated corpus\ndisableKinds: [RSS, sitemap, robotsTXT]\ntaxonomies:\n  client: clients\n  capability: capabilities\n'

HUGO_LAYOUTS = {
    'baseof.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title><link rel="canonical" href="{{ .Permalink }}"></head><body><main>{{ block "main" . }}{{ end }}</main></body></html>\n',
    'list.html': '{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}\n',
    'single.html': '{{ define "main" }}<article><h1>{{ .Title }}</h1><p>{{ .Summary }}</p><p>{{ range .Params.clients }}<a href="/clients/{{ . }}/">{{ . }}</a> {{ end }}{{ range .Params.capabilities }}<a href="/capabilities/{{ . }}/">{{ . }}</a> {{ end }}</p>{{ .Content }}<h2>Related</h2><ul>{{ range .Params.related }}{{ with site.GetPage (printf "/research/%s" .) }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}{{ end }}</ul></article>{{ end }}\n',
    'taxonomy.html': '{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}\n',
    'term.html': '{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}\n',
}

ZOLA_CONFIG = 'base_url = "https://corpus.example.org"\ntitle = "Generated corpus"\ncompile_sass = false\nbuild_search_index = false\ngenerate_feeds = false\ntaxonomies = [{ name = "clients" }, { name = "capabilities" }]\n\n[markdown.highlighting]\ntheme = "github-dark"\nstyle = "class"\n\n[extra]\n'

ZOLA_TEMPLATES = {
    'base.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{% block title %}{{ config.title }}{% endblock %}</title></head><body><main>{% block content %}{% endblock %}</main></body></html>\n',
    'index.html': '{% extends "base.html" %}{% block content %}<h1>{{ section.title }}</h1><ul>{% for p in section.pages %}<li><a href="{{ p.permalink }}">{{ p.title }}</a></li>{% endfor %}</ul>{% endblock %}\n',
    'page.html': '{% extends "base.html" %}{% block content %}<article><h1>{{ page.title }}</h1><link rel="canonical" href="{{ page.permalink }}"><p>{{ page.description }}</p><p>{% for c in page.taxonomies.clients %}<a href="/clients/{{ c }}/">{{ c }}</a> {% endfor %}{% for c in page.taxonomies.capabilities %}<a href="/capabilities/{{ c }}/">{{ c }}</a> {% endfor %}</p>{{ page.content | safe }}<h2>Related</h2><ul>{% for id in page.extra.related %}{% set r = get_page(path="research/" ~ id ~ ".md") %}<li><a href="{{ r.permalink }}">{{ r.title }}</a></li>{% endfor %}</ul></article>{% endblock %}\n',
    'section.html': '{% extends "base.html" %}{% block content %}<h1>{{ section.title }}</h1><ul>{% for p in section.pages %}<li><a href="{{ p.permalink }}">{{ p.title }}</a></li>{% endfor %}</ul>{% endblock %}\n',
    'taxonomy_list.html': '{% extends "base.html" %}{% block content %}<ul>{% for t in terms %}<li><a href="{{ t.permalink }}">{{ t.name }}</a></li>{% endfor %}</ul>{% endblock %}\n',
    'taxonomy_single.html': '{% extends "base.html" %}{% block content %}<h1>{{ term.name }}</h1><ul>{% for p in term.pages %}<li><a href="{{ p.permalink }}">{{ p.title }}</a></li>{% endfor %}</ul>{% endblock %}\n',
}


def notes(site):
    """(file name, front matter, body) of every research note, in name order."""
    folder = os.path.join(site, "content", "research")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".md"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            text = f.read()
        if not text.startswith("---\n"):
            continue
        end = text.find("\n---\n", 4)
        if end < 0:
            continue
        front = yaml.safe_load(text[4:end]) or {}
        yield name, front, text[end + 5:]


def ids(value):
    """A front matter list of ids (strings, or mappings with an `id`) as strings."""
    out = []
    for item in value or []:
        if isinstance(item, dict):
            item = item.get("id")
        if item is not None:
            out.append(str(item))
    return out


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site")
    ap.add_argument("--hugo", required=True)
    ap.add_argument("--zola", required=True)
    args = ap.parse_args()
    write(os.path.join(args.hugo, "hugo.yaml"), HUGO_CONFIG)
    for name, text in HUGO_LAYOUTS.items():
        write(os.path.join(args.hugo, "layouts", "_default", name), text)
    write(os.path.join(args.zola, "config.toml"), ZOLA_CONFIG)
    for name, text in ZOLA_TEMPLATES.items():
        write(os.path.join(args.zola, "templates", name), text)
    write(os.path.join(args.zola, "content", "_index.md"), '+++\ntitle = "Home"\n+++\n')
    write(
        os.path.join(args.zola, "content", "research", "_index.md"),
        '+++\ntitle = "Research"\n+++\n',
    )
    every = list(notes(args.site))
    known = {str(front.get("id", name[:-3])) for name, front, _ in every}
    count = 0
    for name, front, body in every:
        name = str(front.get("id", name[:-3])) + ".md"
        title = str(front.get("title", name))
        summary = str(front.get("summary", ""))
        clients, capabilities = ids(front.get("clients")), ids(front.get("capabilities"))
        related = [r for r in ids(front.get("related")) if r in known]
        hugo_front = {
            "title": title,
            "summary": summary,
            "clients": clients,
            "capabilities": capabilities,
            "related": related,
        }
        write(
            os.path.join(args.hugo, "content", "research", name),
            "---\n" + json.dumps(hugo_front, ensure_ascii=False) + "\n---\n" + body,
        )
        toml = "+++\ntitle = {}\ndescription = {}\n\n[taxonomies]\nclients = {}\n" \
            "capabilities = {}\n\n[extra]\nrelated = {}\n+++\n".format(
                json.dumps(title, ensure_ascii=False),
                json.dumps(summary, ensure_ascii=False),
                json.dumps(clients),
                json.dumps(capabilities),
                json.dumps(related),
            )
        write(os.path.join(args.zola, "content", "research", name), toml + body)
        count += 1
    print(f"wrote {count} notes as Hugo ({args.hugo}) and Zola ({args.zola}) sites", file=sys.stderr)


if __name__ == "__main__":
    main()

//! Writes the same corpus for Zola: config (code blocks highlighted with CSS classes, as
//! fieldnotes does: Zola 0.22's `[markdown.highlighting]`), minimal templates (a page per note, taxonomy
//! pages for clients and capabilities, related notes) and `content/research/`.

use crate::corpus::{self, Note, Shape};
use std::fs;
use std::io;
use std::path::Path;

const CONFIG: &str = "base_url = \"https://corpus.example.org\"\ntitle = \"Generated corpus\"\n\
compile_sass = false\nbuild_search_index = false\ngenerate_feeds = false\n\
taxonomies = [{ name = \"clients\" }, { name = \"capabilities\" }]\n\n\
[markdown.highlighting]\ntheme = \"github-dark\"\nstyle = \"class\"\n\n[extra]\n";

const BASE: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>{% block title %}{{ config.title }}{% endblock %}</title></head>\
<body><main>{% block content %}{% endblock %}</main></body></html>\n";

const PAGE: &str = "{% extends \"base.html\" %}{% block content %}<article><h1>{{ page.title }}</h1>\
<link rel=\"canonical\" href=\"{{ page.permalink }}\"><p>{{ page.description }}</p>\
<p>{% for c in page.taxonomies.clients %}<a href=\"/clients/{{ c }}/\">{{ c }}</a> {% endfor %}\
{% for c in page.taxonomies.capabilities %}<a href=\"/capabilities/{{ c }}/\">{{ c }}</a> {% endfor %}</p>\
{{ page.content | safe }}<h2>Related</h2><ul>{% for id in page.extra.related %}\
{% set r = get_page(path=\"research/\" ~ id ~ \".md\") %}<li><a href=\"{{ r.permalink }}\">{{ r.title }}</a></li>\
{% endfor %}</ul></article>{% endblock %}\n";

const SECTION: &str = "{% extends \"base.html\" %}{% block content %}<h1>{{ section.title }}</h1><ul>\
{% for p in section.pages %}<li><a href=\"{{ p.permalink }}\">{{ p.title }}</a></li>{% endfor %}</ul>{% endblock %}\n";

const TAXONOMY_LIST: &str =
    "{% extends \"base.html\" %}{% block content %}<ul>{% for t in terms %}\
<li><a href=\"{{ t.permalink }}\">{{ t.name }}</a></li>{% endfor %}</ul>{% endblock %}\n";

const TAXONOMY_SINGLE: &str = "{% extends \"base.html\" %}{% block content %}<h1>{{ term.name }}</h1><ul>\
{% for p in term.pages %}<li><a href=\"{{ p.permalink }}\">{{ p.title }}</a></li>{% endfor %}</ul>{% endblock %}\n";

pub fn write(out: &Path, shape: &Shape, notes: &[Note]) -> io::Result<()> {
    let templates = out.join("templates");
    fs::create_dir_all(&templates)?;
    fs::create_dir_all(out.join("content/research"))?;
    fs::write(out.join("config.toml"), CONFIG)?;
    for (name, text) in [
        ("base.html", BASE),
        ("page.html", PAGE),
        ("section.html", SECTION),
        ("index.html", SECTION),
        ("taxonomy_list.html", TAXONOMY_LIST),
        ("taxonomy_single.html", TAXONOMY_SINGLE),
    ] {
        fs::write(templates.join(name), text)?;
    }
    fs::write(
        out.join("content/_index.md"),
        "+++\ntitle = \"Home\"\n+++\n",
    )?;
    fs::write(
        out.join("content/research/_index.md"),
        "+++\ntitle = \"Research\"\n+++\n",
    )?;
    for note in notes {
        let related: Vec<String> = note
            .related
            .iter()
            .map(|r| format!("\"{}\"", corpus::note_id(*r)))
            .collect();
        let text = format!(
            "+++\ntitle = \"{}\"\ndescription = \"{}\"\n\n[taxonomies]\nclients = [{}]\ncapabilities = [{}]\n\n[extra]\nrelated = [{}]\n+++\n\n{}",
            note.title,
            note.summary,
            quoted(corpus::names(&note.clients, corpus::client_id)),
            quoted(corpus::names(&note.capabilities, |c| shape.capability_id(c))),
            related.join(", "),
            note.body
        );
        fs::write(out.join(format!("content/research/{}.md", note.id)), text)?;
    }
    Ok(())
}

/// `"a", "b"`: TOML strings.
fn quoted(names: Vec<String>) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    quoted.join(", ")
}

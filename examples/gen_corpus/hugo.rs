//! Writes the same corpus for Hugo: config (`hugo.yaml` highlights code blocks, as Hugo does
//! by default; `plain.yaml` does not), minimal templates (a page per note, taxonomy pages for
//! clients and capabilities, related notes) and `content/research/`.

use crate::corpus::{self, Note, Shape};
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;

const CONFIG: &str = "baseURL: https://corpus.example.org/\ntitle: Generated corpus\n\
disableKinds: [RSS, sitemap, robotsTXT]\ntaxonomies:\n  client: clients\n  capability: capabilities\n";

const BASEOF: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>{{ .Title }}</title><link rel=\"canonical\" href=\"{{ .Permalink }}\"></head>\
<body><main>{{ block \"main\" . }}{{ end }}</main></body></html>\n";

const SINGLE: &str = "{{ define \"main\" }}<article><h1>{{ .Title }}</h1><p>{{ .Summary }}</p>\
<p>{{ range .Params.clients }}<a href=\"/clients/{{ . }}/\">{{ . }}</a> {{ end }}\
{{ range .Params.capabilities }}<a href=\"/capabilities/{{ . }}/\">{{ . }}</a> {{ end }}</p>\
{{ .Content }}<h2>Related</h2><ul>{{ range .Params.related }}\
{{ with site.GetPage (printf \"/research/%s\" .) }}<li><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></li>{{ end }}\
{{ end }}</ul></article>{{ end }}\n";

const LIST: &str = "{{ define \"main\" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}\
<li><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}\n";

pub fn write(out: &Path, shape: &Shape, notes: &[Note]) -> io::Result<()> {
    let layouts = out.join("layouts/_default");
    fs::create_dir_all(&layouts)?;
    fs::create_dir_all(out.join("content/research"))?;
    fs::write(out.join("hugo.yaml"), CONFIG)?;
    // The same site with code blocks left as plain text (`hugo --config plain.yaml`).
    let plain = format!("{CONFIG}markup:\n  highlight:\n    codeFences: false\n");
    fs::write(out.join("plain.yaml"), plain)?;
    fs::write(layouts.join("baseof.html"), BASEOF)?;
    fs::write(layouts.join("single.html"), SINGLE)?;
    for name in ["list.html", "taxonomy.html", "term.html"] {
        fs::write(layouts.join(name), LIST)?;
    }
    for note in notes {
        let mut s = format!(
            "---\ntitle: \"{}\"\nsummary: \"{}\"\nclients: [{}]\ncapabilities: [{}]\nrelated: [",
            note.title,
            note.summary,
            corpus::names(&note.clients, corpus::client_id).join(", "),
            corpus::names(&note.capabilities, |c| shape.capability_id(c)).join(", ")
        );
        let related: Vec<String> = note.related.iter().map(|r| corpus::note_id(*r)).collect();
        let _ = write!(s, "{}]\n---\n\n{}", related.join(", "), note.body);
        fs::write(out.join(format!("content/research/{}.md", note.id)), s)?;
    }
    Ok(())
}

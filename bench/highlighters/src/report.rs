//! Runs an engine over the blocks and prints what it cost and what it made.

use crate::blocks::{Block, LANGUAGES};
use crate::clock::{Spent, Times};
use crate::engines::Engine;

/// One language's tally.
#[derive(Default)]
pub struct Language {
    spent: Spent,
    blocks: usize,
    /// Blocks the engine had a grammar for and marked at least one token in.
    highlighted: usize,
    /// Blocks whose HTML, tags stripped and unescaped, is not exactly the block's text.
    altered: usize,
    spans: usize,
    sample: Option<String>,
}

pub struct Run {
    total: Spent,
    languages: Vec<Language>,
}

pub fn run(engine: &mut dyn Engine, blocks: &[Block]) -> Run {
    let mut languages: Vec<Language> = LANGUAGES.iter().map(|_| Language::default()).collect();
    let mut total = Spent::default();
    for block in blocks {
        let l = LANGUAGES
            .iter()
            .position(|l| *l == block.lang)
            .expect("a generator language");
        let start = Times::now();
        let html = engine.highlight(&block.lang, &block.code);
        let spent = start.elapsed();
        total += spent;
        let tally = &mut languages[l];
        tally.spent += spent;
        tally.blocks += 1;
        if let Some(html) = html {
            let spans = html.matches("<span").count();
            tally.spans += spans;
            tally.highlighted += usize::from(spans > 0);
            tally.altered += usize::from(text_of(&html).trim_end() != block.code.trim_end());
            tally.sample.get_or_insert(html);
        }
    }
    Run { total, languages }
}

/// The text an HTML fragment shows: tags dropped, the five escapes undone.
fn text_of(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        rest = &rest[open..];
        rest = &rest[rest.find('>').map_or(rest.len(), |c| c + 1)..];
    }
    text.push_str(rest);
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

pub fn print(name: &str, load: &Spent, run: &Run, samples: bool) {
    let blocks: usize = run.languages.iter().map(|l| l.blocks).sum();
    println!(
        "\n## {name}\ngrammars loaded in {load}; {blocks} blocks in {}",
        run.total
    );
    println!("| language | blocks | highlighted | text altered | spans/block | ms/block CPU | ms/block wall |");
    println!("|---|---|---|---|---|---|---|");
    for (lang, l) in LANGUAGES.iter().zip(&run.languages) {
        let per = |d: std::time::Duration| d.as_secs_f64() * 1e3 / l.blocks.max(1) as f64;
        println!(
            "| {lang} | {} | {} | {} | {:.0} | {:.3} | {:.3} |",
            l.blocks,
            l.highlighted,
            l.altered,
            l.spans as f64 / l.highlighted.max(1) as f64,
            per(l.spent.cpu),
            per(l.spent.wall)
        );
    }
    if samples {
        for (lang, l) in LANGUAGES.iter().zip(&run.languages) {
            let sample = l.sample.as_deref().unwrap_or("(no grammar)");
            let cut = sample
                .char_indices()
                .nth(1200)
                .map_or(sample.len(), |(i, _)| i);
            println!("\n### {lang} sample\n```html\n{}\n```", &sample[..cut]);
        }
    }
}

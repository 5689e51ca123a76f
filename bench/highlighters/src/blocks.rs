//! The benchmark corpus's code blocks: runs `examples/gen_corpus`'s own generator (same seed,
//! same order of draws as `gen_corpus --shape seed --notes N`) and takes each fenced block of each note's
//! body with its language, so the blocks are exactly the ones a built corpus holds.

use crate::{code, corpus};

/// One fenced block: its language as written after the fence, and its text.
pub struct Block {
    pub lang: String,
    pub code: String,
}

/// The languages the generator writes, in its order.
pub const LANGUAGES: [&str; 6] = code::LANGUAGES;

/// Every fenced block of the `notes`-note corpus, in note order.
pub fn corpus(notes: usize) -> Vec<Block> {
    let mut rng = corpus::Rng::new();
    let shape = corpus::Shape::seed();
    for _ in 0..shape.clients {
        corpus::cells(notes, &shape, &mut rng);
    }
    (0..notes)
        .flat_map(|n| fenced(&corpus::note(n, notes, &shape, &mut rng).body))
        .collect()
}

/// The fenced blocks of one Markdown body.
fn fenced(body: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for line in body.split_inclusive('\n') {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    lang: info.trim().to_string(),
                    code: String::new(),
                })
            }
            (Some(_), Some(_)) => blocks.extend(open.take()),
            (Some(block), None) => block.code.push_str(line),
            (None, None) => {}
        }
    }
    blocks
}

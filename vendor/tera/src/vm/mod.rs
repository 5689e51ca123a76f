pub(crate) mod for_loop;
mod stack;
pub(crate) mod state;

pub(crate) mod interpreter;
pub(crate) mod budget;

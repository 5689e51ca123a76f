//! Claims on observation ids among probes writing into one folder: two probe processes whose
//! sessions began in the same second (a client that starts two servers at once) would pick
//! the same id and each overwrite the other's files. Before an id is used, the probe creates
//! `.<id>.claim` (refused if anything is at that name already); once the observation's own
//! `.md` is written, that file guards the id and the claim goes.

use crate::beneath::{Mode, Root};
use crate::error::Error;
use std::path::{Path, PathBuf};

fn name(id: &str) -> PathBuf {
    PathBuf::from(format!(".{id}.claim"))
}

/// Whether `id` is this process's to use in `dir`: its claim was made now. A claim already
/// there (another probe's, or one a killed probe left) is not; a folder that cannot be
/// written is left to the observation's own write to report.
pub(crate) fn claim(dir: &Path, id: &str) -> bool {
    let Ok(folder) = Root::in_site(dir) else {
        return true;
    };
    let pid = std::process::id().to_string();
    match folder.write(&name(id), pid.as_bytes(), Mode::New) {
        Ok(()) => true,
        Err(Error::Io { source, .. }) => source.kind() != std::io::ErrorKind::AlreadyExists,
        Err(_) => true,
    }
}

/// The process that made the claim at `path` (a `.<id>.claim` file), if it is one: a sweep
/// removes a claim whose probe was killed before it wrote the observation.
pub(crate) fn holder(path: &Path) -> Option<u32> {
    let name = path.file_name()?.to_str()?;
    if !(name.starts_with('.') && name.ends_with(".claim")) {
        return None;
    }
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Drops the claim on `id`, once its `.md` is there to guard it.
pub(crate) fn release(dir: &Path, id: &str) {
    if let Ok(folder) = Root::in_site(dir) {
        let _ = folder.remove(&name(id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_claimed_once_until_released() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert!(claim(dir.path(), "c-1-stdio-20261207-100959"));
        assert!(!claim(dir.path(), "c-1-stdio-20261207-100959"));
        assert!(claim(dir.path(), "c-1-stdio-20261207-100959-2"));
        let claimed = dir.path().join(".c-1-stdio-20261207-100959-2.claim");
        assert_eq!(holder(&claimed), Some(std::process::id()));
        release(dir.path(), "c-1-stdio-20261207-100959");
        assert!(!dir.path().join(".c-1-stdio-20261207-100959.claim").exists());
    }
}

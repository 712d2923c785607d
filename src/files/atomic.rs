//! Writing a file whole or not at all: into a temporary file beside it, then renamed over it, so
//! that an interrupted or failed write never leaves half a file where the user's file was.

use super::FileError;
use std::io::Write;
use std::path::Path;

/// Writes `contents` to `path` atomically. With `overwrite` false an existing file is refused
/// (also one that appears while writing); with `overwrite` true it is replaced, keeping its
/// permissions.
pub fn write_atomically(path: &Path, contents: &[u8], overwrite: bool) -> Result<(), FileError> {
    let name = path.display().to_string();
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        FileError::new(&name, format!("cannot {what} the file: {e}"))
    };
    let exists_error = || {
        FileError::new(
            &name,
            "the file exists already; refusing to overwrite it (use --force to replace it)",
        )
    };
    if path.is_dir() {
        return Err(FileError::new(&name, "this is a directory, not a file"));
    }
    if path.exists() && !overwrite {
        return Err(exists_error());
    }
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".cathedral-").suffix(".part");
    // Keep the permissions of the file being replaced; a new file gets the usual 0666 minus the
    // umask rather than the temporary file's private 0600.
    let permissions = match std::fs::metadata(path) {
        Ok(meta) => Some(meta.permissions()),
        Err(_) => default_permissions(),
    };
    if let Some(permissions) = permissions {
        builder.permissions(permissions);
    }
    let mut temporary = builder.tempfile_in(dir).map_err(|e| fail("create", &e))?;
    temporary
        .write_all(contents)
        .and_then(|()| temporary.as_file().sync_all())
        .map_err(|e| fail("write", &e))?;
    if overwrite {
        temporary
            .persist(path)
            .map_err(|e| fail("write", &e.error))?;
    } else {
        temporary.persist_noclobber(path).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                exists_error()
            } else {
                fail("write", &e.error)
            }
        })?;
    }
    Ok(())
}

#[cfg(unix)]
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o666))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<std::fs::Permissions> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_refuses_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomically(&path, b"one", false).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        let refused = write_atomically(&path, b"two", false).unwrap_err();
        assert!(refused.message.contains("exists already"), "{refused}");
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        write_atomically(&path, b"three", true).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"three");
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_is_not_private_and_a_replaced_one_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.txt");
        write_atomically(&path, b"x", false).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_ne!(
            mode & 0o044,
            0,
            "a new file is readable by others as usual: {mode:o}"
        );
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&path, b"y", true).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn a_directory_or_a_missing_folder_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_atomically(dir.path(), b"x", true).is_err());
        assert!(write_atomically(&dir.path().join("no/such/file"), b"x", true).is_err());
    }
}

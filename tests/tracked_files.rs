//! Nothing built is committed: a compiled extension, a wheel or a WebAssembly module in git goes
//! out of date with the next commit and then shadows the real build (issue 47: a tracked
//! `_cathedral.abi3.so`, 31 commits old, made `import cathedral` fail from the source tree).

use std::process::Command;

/// What a build leaves: compiled code and packages of it.
const BUILT: [&str; 8] = [
    ".so", ".pyd", ".dll", ".dylib", ".whl", ".wasm", ".rlib", ".o",
];

#[test]
fn no_build_artefact_is_tracked() {
    let root = env!("CARGO_MANIFEST_DIR");
    let Ok(output) = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
    else {
        eprintln!("git is not installed: nothing to check");
        return;
    };
    if !output.status.success() {
        // Not a git checkout (a source archive): nothing is tracked.
        eprintln!("not a git checkout: nothing to check");
        return;
    }
    let files = String::from_utf8_lossy(&output.stdout);
    let files: Vec<&str> = files.split('\0').filter(|f| !f.is_empty()).collect();
    assert!(files.len() > 100, "git lists the repository's files");
    let built: Vec<&&str> = files
        .iter()
        .filter(|f| BUILT.iter().any(|ext| f.ends_with(ext)))
        .collect();
    assert!(
        built.is_empty(),
        "build artefacts are tracked (remove them with `git rm --cached` and let .gitignore keep them out): {built:?}"
    );
}

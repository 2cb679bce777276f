//! Embeds the page: every file under the workspace's `web/` (except `node_modules`,
//! hidden files and build files) becomes an entry of `FILES` in
//! `$OUT_DIR/web_files.rs`, `include_bytes!`-ed, so `cargo run` needs no Node and no
//! files beside the binary. Of `web/vendor/` only what `build.sh` outputs ships: the
//! bundles (`*.js` but the `*entry.js` they are built from) and THIRD_PARTY_LICENSES.txt.
//! Cargo re-runs this when anything under `web/` changes.

use std::path::{Path, PathBuf};

fn skipped(rel: &str, name: &str, is_dir: bool) -> bool {
    name.starts_with('.')
        || name == "node_modules"
        || name == "package.json"
        || name == "package-lock.json"
        || name.ends_with(".sh")
        || name.ends_with(".md")
        || (!is_dir && rel.starts_with("vendor/") && !vendor_output(name))
}

/// A file `web/vendor/build.sh` writes for the page (not its sources or tools).
fn vendor_output(name: &str) -> bool {
    (name.ends_with(".js") && !name.ends_with("entry.js")) || name == "THIRD_PARTY_LICENSES.txt"
}

fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        let Ok(rel) = path.strip_prefix(root) else { continue };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if skipped(&rel, &name, path.is_dir()) {
            continue;
        }
        if path.is_dir() {
            walk(&path, root, out);
        } else {
            out.push((rel, path.canonicalize().unwrap_or(path)));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let web = manifest.join("../../web");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files = Vec::new();
    walk(&web, &web, &mut files);
    let mut code = String::from("pub(crate) static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, path) in files {
        code.push_str(&format!("    ({rel:?}, include_bytes!({:?})),\n", path.display().to_string()));
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("web_files.rs");
    std::fs::write(out, code).expect("write web_files.rs");
}

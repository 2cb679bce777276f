//! Embeds the page: every file under the workspace's `web/` (except `node_modules`,
//! hidden files and the vendor folder's build files) becomes an entry of `FILES` in
//! `$OUT_DIR/web_files.rs`, `include_bytes!`-ed, so `cargo run` needs no Node and no
//! files beside the binary. Cargo re-runs this when anything under `web/` changes.

use std::path::{Path, PathBuf};

fn skipped(name: &str) -> bool {
    name.starts_with('.')
        || name == "node_modules"
        || name == "package.json"
        || name == "package-lock.json"
        || name.ends_with(".sh")
        || name.ends_with(".md")
}

fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if skipped(&name) {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            walk(&path, root, out);
        } else if let Ok(rel) = path.strip_prefix(root) {
            let rel = rel.to_string_lossy().replace('\\', "/");
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

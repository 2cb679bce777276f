//! The page's files, embedded at build time from `web/` (see `build.rs`), and the HTML
//! shell every view's address answers with.

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// The shell until the page lands in `web/index.html`: it says what it is, nothing more.
const PLACEHOLDER: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>Campus</title></head><body><main><h1>Campus</h1>\
<p>The page is not built into this binary yet. The stream is at <code>/api/ui/stream</code>.</p>\
</main></body></html>\n";

/// An embedded file by its path under `web/`.
pub(crate) fn file(path: &str) -> Option<&'static [u8]> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, bytes)| *bytes)
}

fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn respond(bytes: &'static [u8], content_type: &'static str) -> Response {
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// `GET /`, `/conversation`, `/activity`, `/topology`: the same shell; the page routes itself.
pub(crate) async fn shell() -> Response {
    respond(file("index.html").unwrap_or(PLACEHOLDER.as_bytes()), "text/html; charset=utf-8")
}

/// `GET /assets/{*path}`: a file under `web/`.
pub(crate) async fn asset(Path(path): Path<String>) -> Response {
    match file(&path) {
        Some(bytes) if !path.split('/').any(|s| s == "..") => respond(bytes, content_type(&path)),
        _ => ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such file").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_by_extension() {
        assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("views/x.mjs"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("style.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("noext"), "application/octet-stream");
        assert!(FILES.iter().all(|(p, _)| !p.contains("node_modules") && !p.starts_with('.')));
    }

    #[test]
    fn the_vendor_folder_ships_its_bundles_and_licenses_only() {
        let vendor: Vec<&str> = FILES.iter().map(|(p, _)| *p).filter(|p| p.starts_with("vendor/")).collect();
        assert_eq!(vendor, ["vendor/THIRD_PARTY_LICENSES.txt", "vendor/a2ui.js", "vendor/agui.js"]);
    }
}

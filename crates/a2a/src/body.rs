//! Reading bodies under a size limit, before any parsing.

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, header};

/// The body was larger than allowed.
#[derive(Debug)]
pub(crate) struct TooLarge;

/// Reads a request body, refusing at once when `Content-Length` announces more than
/// `limit` and stopping as soon as a chunked body passes it.
pub(crate) async fn read_limited(headers: &HeaderMap, body: Body, limit: usize) -> Result<Bytes, TooLarge> {
    let announced =
        headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > limit as u64) {
        return Err(TooLarge);
    }
    axum::body::to_bytes(body, limit).await.map_err(|_| TooLarge)
}

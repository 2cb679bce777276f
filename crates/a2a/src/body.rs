//! Reading bodies under a size limit, before any parsing.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, header};
use futures_util::StreamExt;

/// Why a body was not read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Unread {
    /// Larger than allowed (413).
    TooLarge,
    /// It could not be read: a malformed chunked encoding, a connection cut (400).
    Broken,
}

/// How much of an oversized body is read and thrown away so that the client, still
/// sending, gets to read our 413 instead of a reset connection. Past this we stop.
const DRAIN_FACTOR: u64 = 8;
const DRAIN_TIME: Duration = Duration::from_secs(2);

/// Reads a request body, keeping at most `limit` bytes. An oversized body is refused
/// without being buffered or parsed: the rest is discarded (up to a bound) and the
/// caller answers 413.
pub(crate) async fn read_limited(headers: &HeaderMap, body: Body, limit: usize) -> Result<Bytes, Unread> {
    let announced =
        headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    let drain_cap = (limit as u64).saturating_mul(DRAIN_FACTOR);
    let mut stream = body.into_data_stream();
    if let Some(n) = announced.filter(|n| *n > limit as u64) {
        if n <= drain_cap {
            drain(&mut stream, drain_cap).await;
        }
        return Err(Unread::TooLarge);
    }
    let mut buf = Vec::with_capacity(announced.map_or(0, |n| n as usize));
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| Unread::Broken)?;
        if buf.len() + chunk.len() > limit {
            drain(&mut stream, drain_cap).await;
            return Err(Unread::TooLarge);
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(buf))
}

async fn drain(stream: &mut axum::body::BodyDataStream, cap: u64) {
    let _ = tokio::time::timeout(DRAIN_TIME, async {
        let mut seen = 0u64;
        while let Some(Ok(chunk)) = stream.next().await {
            seen += chunk.len() as u64;
            if seen > cap {
                break;
            }
        }
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_body_that_breaks_off_is_unreadable_not_too_large() {
        let chunks: Vec<Result<Bytes, std::io::Error>> =
            vec![Ok(Bytes::from_static(b"{\"a\":")), Err(std::io::Error::other("cut"))];
        let body = Body::from_stream(futures_util::stream::iter(chunks));
        assert_eq!(read_limited(&HeaderMap::new(), body, 1024).await, Err(Unread::Broken));
        let big = Body::from(vec![b'x'; 2048]);
        assert_eq!(read_limited(&HeaderMap::new(), big, 1024).await, Err(Unread::TooLarge));
        let fine = Body::from("{}");
        assert_eq!(read_limited(&HeaderMap::new(), fine, 1024).await.unwrap(), Bytes::from_static(b"{}"));
    }
}

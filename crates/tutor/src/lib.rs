//! The Tutor agent. Fixed mode answers every chat message with one fixed reply, in the
//! caller's context; later modes (mock and live models, forms) plug into the same executor.
//!
//! API: [`Config`] (validated data), [`router`] and [`serve`].

mod card;
mod config;
mod executor;

use std::future::Future;
use std::net::SocketAddr;

use a2a::server::{A2aServer, CardCell};
use axum::Router;
use tokio::net::TcpListener;

pub use card::agent_card;
pub use config::{Config, ConfigError, DEFAULT_PORT};
pub use executor::{FIXED_REPLY, FixedTutor};

/// The Tutor's routes, guarded for a server bound at `addr`.
pub fn router(addr: SocketAddr) -> Router {
    let base = format!("http://{addr}");
    let card = CardCell::new(a2a::CardDoc::new(agent_card(&base)));
    let server = A2aServer::new(FixedTutor, card);
    guard::protect(server.router(), guard::LocalPolicy::new(addr))
}

/// Serves the Tutor on `listener` until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    let app = router(addr);
    axum::serve(listener, app).with_graceful_shutdown(shutdown).await
}

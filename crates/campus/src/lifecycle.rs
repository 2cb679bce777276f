//! How a `campus` process starts and stops: binding its port (a taken port is one line
//! naming it), the signals that stop it gracefully (SIGINT, SIGTERM, SIGHUP), and dying
//! with the launcher that started it (`CAMPUS_PARENT_PID`).

use std::future::Future;
use std::net::SocketAddr;

use nix::sys::signal::Signal;
use tokio::net::TcpListener;
use tokio::signal::unix::{SignalKind, signal};

/// Set by a launcher (`campus demo`, `campus bench`) on its children: the launcher's pid.
/// The child then asks the kernel for SIGTERM when the launcher dies, however it dies.
pub(crate) const PARENT_PID_VAR: &str = "CAMPUS_PARENT_PID";
/// Set by the demo on its children: the variable that sets the child's port there
/// (`TUTOR_PORT`), named in the message when the port is taken. `PORT` otherwise.
pub(crate) const PORT_VAR_VAR: &str = "CAMPUS_PORT_VAR";

/// With `CAMPUS_PARENT_PID` set: SIGTERM to this process when its parent dies
/// (`PR_SET_PDEATHSIG`, through nix's safe wrapper), then a check that the parent is
/// still that pid; if the launcher is already gone, `Ok(false)`: do not start.
///
/// Called on the main thread before the runtime starts. The signal fires when the thread
/// that spawned this process exits: launchers spawn from the future `block_on` polls on
/// their main thread (even on a multi-thread runtime), never from a spawned task.
pub(crate) fn follow_parent(env: &dyn Fn(&str) -> Option<String>) -> Result<bool, conf::ConfError> {
    let Some(pid) = conf::env_parse::<i32>(PARENT_PID_VAR, env, "a process id")? else {
        return Ok(true);
    };
    if let Err(e) = nix::sys::prctl::set_pdeathsig(Signal::SIGTERM) {
        // Without it the launcher's own signals still stop us; only its death would not.
        tracing::warn!(error = %e, "could not ask to be stopped with the launcher");
    }
    Ok(nix::unistd::getppid().as_raw() == pid)
}

/// Completes on the first SIGINT (Ctrl+C), SIGTERM or SIGHUP (terminal closed), naming it.
/// The handlers are installed now, before the caller's ready line, so a signal that comes
/// right after it is not the default (immediate) death.
pub(crate) fn stop_signal() -> std::io::Result<impl Future<Output = &'static str> + Send + 'static> {
    let mut int = signal(SignalKind::interrupt())?;
    let mut term = signal(SignalKind::terminate())?;
    let mut hup = signal(SignalKind::hangup())?;
    Ok(async move {
        tokio::select! {
            _ = int.recv() => "SIGINT",
            _ = term.recv() => "SIGTERM",
            _ = hup.recv() => "SIGHUP",
        }
    })
}

/// [`stop_signal`] for a server: logs and completes.
pub(crate) fn shutdown_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    let stop = stop_signal()?;
    Ok(async move {
        let signal = stop.await;
        tracing::info!(signal, "shutting down");
    })
}

/// Binds `addr` for the agent `name`; a taken port is one line naming the port and the
/// variable that moves it.
pub(crate) async fn bind(name: &str, addr: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr).await.map_err(|e| {
        if e.kind() == std::io::ErrorKind::AddrInUse {
            let var = crate::env(PORT_VAR_VAR).unwrap_or_else(|| "PORT".into());
            anyhow::anyhow!(
                "could not bind port {} for the {name}: it is already in use; stop the other process or set {var}",
                addr.port()
            )
        } else {
            anyhow::anyhow!("could not bind {addr} for the {name}: {}", e.kind().to_string().to_lowercase())
        }
    })
}

#[cfg(test)]
mod tests {
    /// `campus bench` and the paid checks start their children from the measure crate:
    /// the variable they set is the one read here.
    #[test]
    fn the_measuring_launcher_sets_the_variable_read_here() {
        assert_eq!(super::PARENT_PID_VAR, measure::PARENT_PID_VAR);
    }
}

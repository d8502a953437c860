//! Talking to systemd as a `Type=notify` service (deploy/site.service): the sd_notify
//! protocol, written here because it is one datagram per message. systemd names a Unix
//! datagram socket in `NOTIFY_SOCKET` (a path, or `@name` in the abstract namespace); the
//! server sends `READY=1` once it answers (migrations run, render cache warm, listeners
//! bound), `STOPPING=1` when it starts to drain, and `WATCHDOG=1` every half of
//! `WATCHDOG_USEC` while its writer and render engines answer (`main.rs`). Without
//! `NOTIFY_SOCKET` (run by hand, in a container) nothing is sent.

use std::io;
use std::os::unix::net::{SocketAddr, UnixDatagram};
use std::time::Duration;

/// A connection to systemd's notification socket.
#[derive(Debug)]
pub struct Notifier {
    socket: UnixDatagram,
    target: SocketAddr,
}

impl Notifier {
    /// The socket `NOTIFY_SOCKET` names; None when it is unset or empty, an error when it
    /// names something that is not a Unix socket address (the message names the variable).
    pub fn from_env() -> io::Result<Option<Self>> {
        match std::env::var("NOTIFY_SOCKET") {
            Ok(name) if !name.is_empty() => Self::to(&name).map(Some),
            _ => Ok(None),
        }
    }

    /// The socket at `name`: a path, or `@name` for one in the abstract namespace.
    pub fn to(name: &str) -> io::Result<Self> {
        let target = match name.strip_prefix('@') {
            Some(abstract_name) => abstract_address(abstract_name.as_bytes())?,
            None if name.starts_with('/') => SocketAddr::from_pathname(name)?,
            None => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("NOTIFY_SOCKET={name:?} is neither an absolute path nor @name"),
                ));
            }
        };
        let socket = UnixDatagram::unbound()?;
        // systemd reads its socket at once; a full queue must not hold the server for long.
        socket.set_write_timeout(Some(Duration::from_secs(2)))?;
        Ok(Self { socket, target })
    }

    /// Sends one message (`READY=1`, `STOPPING=1`, `WATCHDOG=1`, `STATUS=…`, newline-separated).
    pub fn notify(&self, message: &str) -> io::Result<()> {
        let sent = self.socket.send_to_addr(message.as_bytes(), &self.target)?;
        if sent == message.len() {
            Ok(())
        } else {
            Err(io::Error::new(io::ErrorKind::WriteZero, "the notification was cut short"))
        }
    }

    /// Sends `message`, logging (not failing) when systemd cannot be told: the server
    /// serves either way, and systemd acts on what it does not hear (a start timeout, the
    /// watchdog).
    pub fn tell(&self, message: &str) {
        if let Err(e) = self.notify(message) {
            tracing::warn!(error = %e, message, "cannot notify systemd (NOTIFY_SOCKET)");
        }
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn abstract_address(name: &[u8]) -> io::Result<SocketAddr> {
    #[cfg(target_os = "android")]
    use std::os::android::net::SocketAddrExt;
    #[cfg(target_os = "linux")]
    use std::os::linux::net::SocketAddrExt;
    SocketAddr::from_abstract_name(name)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn abstract_address(_name: &[u8]) -> io::Result<SocketAddr> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "abstract socket names exist on Linux only",
    ))
}

/// How often to ping the watchdog: half of `WATCHDOG_USEC`, when that is set and
/// `WATCHDOG_PID` is unset or this process's (systemd sets both for the main process; a
/// child that inherited them must not ping for its parent).
pub fn watchdog_interval() -> Option<Duration> {
    interval_for(
        std::env::var("WATCHDOG_USEC").ok().as_deref(),
        std::env::var("WATCHDOG_PID").ok().as_deref(),
        std::process::id(),
    )
}

fn interval_for(usec: Option<&str>, pid: Option<&str>, own_pid: u32) -> Option<Duration> {
    if let Some(pid) = pid
        && pid.trim().parse::<u32>().ok() != Some(own_pid)
    {
        return None;
    }
    let usec: u64 = usec?.trim().parse().ok().filter(|u| *u > 0)?;
    Some(Duration::from_micros(usec / 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watchdog_interval_is_half_the_timeout_and_for_the_named_process_only() {
        assert_eq!(interval_for(Some("30000000"), None, 7), Some(Duration::from_secs(15)));
        assert_eq!(interval_for(Some("30000000"), Some("7"), 7), Some(Duration::from_secs(15)));
        assert_eq!(interval_for(Some("30000000"), Some("8"), 7), None, "another process's watchdog");
        assert_eq!(interval_for(None, None, 7), None);
        assert_eq!(interval_for(Some("0"), None, 7), None);
        assert_eq!(interval_for(Some("soon"), None, 7), None);
    }

    #[test]
    fn messages_reach_a_socket_by_path_and_in_the_abstract_namespace() {
        let dir = std::env::temp_dir().join(format!("site-notify-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("notify.sock");
        let _ = std::fs::remove_file(&path);
        let systemd = UnixDatagram::bind(&path).expect("bind");
        Notifier::to(path.to_str().expect("utf-8 path"))
            .expect("notifier")
            .notify("READY=1")
            .expect("send");
        let mut buf = [0u8; 64];
        let n = systemd.recv(&mut buf).expect("recv");
        assert_eq!(&buf[..n], b"READY=1");
        let _ = std::fs::remove_dir_all(&dir);

        #[cfg(target_os = "linux")]
        {
            use std::os::linux::net::SocketAddrExt;
            let name = format!("site-notify-test-{}", std::process::id());
            let systemd = UnixDatagram::bind_addr(&SocketAddr::from_abstract_name(name.as_bytes()).expect("name")).expect("bind");
            Notifier::to(&format!("@{name}"))
                .expect("notifier")
                .notify("WATCHDOG=1")
                .expect("send");
            let n = systemd.recv(&mut buf).expect("recv");
            assert_eq!(&buf[..n], b"WATCHDOG=1");
        }
        assert!(Notifier::to("relative/notify.sock").is_err());
    }
}

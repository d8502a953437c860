//! The CPUs connections run on (`serve::Workers`): the ones the process may use, binding a
//! thread to one, and the CPU a connection's packets arrive on (`SO_INCOMING_CPU`), so each
//! connection is served by the worker on the CPU that receives it
//! (docs/decisions/030-the-cached-page-at-the-limit.md gives why, with its measures).
//! Elsewhere than Linux, none is known and nothing is bound.

/// The CPUs this process may run on, in order (empty when they cannot be read).
#[cfg(target_os = "linux")]
pub fn allowed() -> Vec<usize> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; the call fills it for this thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize).filter(|&cpu| libc::CPU_ISSET(cpu, &set)).collect()
    }
}

#[cfg(not(target_os = "linux"))]
pub fn allowed() -> Vec<usize> {
    Vec::new()
}

/// Binds the calling thread to `cpu`; if it cannot be, the thread runs where the kernel puts it.
#[cfg(target_os = "linux")]
pub fn bind_this_thread(cpu: usize) {
    // SAFETY: a set with one CPU, for the calling thread (0).
    let bound = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    };
    if !bound {
        tracing::debug!(cpu, error = %std::io::Error::last_os_error(), "a connection thread was not bound to its CPU");
    }
}

#[cfg(not(target_os = "linux"))]
pub fn bind_this_thread(_: usize) {}

/// The CPU that received `stream`'s packets last (`SO_INCOMING_CPU`), if the kernel says.
#[cfg(target_os = "linux")]
pub fn incoming(stream: &std::net::TcpStream) -> Option<usize> {
    use std::os::fd::AsRawFd;
    let mut cpu: libc::c_int = -1;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: an int-sized option read into `cpu`, on a socket this process owns.
    let got = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_INCOMING_CPU,
            (&mut cpu as *mut libc::c_int).cast(),
            &mut len,
        )
    };
    (got == 0 && cpu >= 0).then_some(cpu as usize)
}

#[cfg(not(target_os = "linux"))]
pub fn incoming(_: &std::net::TcpStream) -> Option<usize> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loopback_connection_is_received_on_a_cpu_the_process_may_use() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let client = std::net::TcpStream::connect(listener.local_addr().expect("addr")).expect("connect");
        let (accepted, _) = listener.accept().expect("accept");
        drop(client);
        if cfg!(target_os = "linux") {
            let cpu = incoming(&accepted).expect("SO_INCOMING_CPU on Linux");
            let allowed = allowed();
            assert!(!allowed.is_empty());
            // Loopback's packets are received on the sender's CPU: one this process runs on.
            assert!(allowed.contains(&cpu), "cpu {cpu}, allowed {allowed:?}");
        }
    }
}

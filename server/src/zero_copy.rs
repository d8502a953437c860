//! Bodies the kernel sends without copying them: the cached pages' bytes live in sealed
//! memory files (`memfd_create`), mapped read-only, and a connection's writes hand such a body
//! to the socket with `sendfile` from its file instead of copying it out of the process's
//! memory with `writev` (docs/decisions/030-the-cached-page-at-the-limit.md, "Zero copy").
//!
//! Two parts, used by two callers:
//! - [`bodies`] keeps bytes in one such file and returns them as `Bytes` over its mapping
//!   (`encoding::Encoded` keeps a page's identity, gzip and brotli bodies this way), and
//!   records the mapping's address range and file;
//! - [`Stream`] is the socket the HTTP connection writes to (`serve`): a vectored write whose
//!   slice lies inside a recorded mapping (hyper writes a body as the very `Bytes` the answer
//!   holds) sends the slices before it with `sendmsg(MSG_MORE)` and that slice with `sendfile`
//!   at its offset in the file; anything else is the plain socket's write.
//!
//! Why it is safe: the file is sealed against writing and resizing before it is mapped, so the
//! bytes the kernel still holds for a socket after the `Bytes` are gone are the bytes that were
//! sent; a mapping is unrecorded before it is unmapped, and a write only looks up a slice it
//! holds, whose mapping cannot go meanwhile. Elsewhere than Linux, when a memory file cannot be
//! made, or past [`MAX_MAPPED`] files, bodies are ordinary heap bytes and writes plain writes.

use std::collections::BTreeMap;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};
use std::task::{Context, Poll, ready};

use axum::body::Bytes;
use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};
use tokio::net::TcpStream;

/// Bodies shorter than this are copied: below it, the copy costs less than a second system call.
pub const MIN_BODY: usize = 4096;
/// At most this many memory files at once (each holds one open file descriptor): the cached
/// documents and assets are about a hundred.
pub const MAX_MAPPED: usize = 1024;

/// Address ranges of the live mappings: start → (end, file descriptor).
static MAPPED: RwLock<BTreeMap<usize, (usize, i32)>> = RwLock::new(BTreeMap::new());
static COUNT: AtomicUsize = AtomicUsize::new(0);
/// Whether the one warning that memory files are not available was logged.
static WARNED: Mutex<bool> = Mutex::new(false);

/// `parts` in one memory file, each returned as `Bytes` over the shared mapping (or as heap
/// bytes, see the module documentation). Empty parts and parts below [`MIN_BODY`] in all stay
/// heap bytes.
pub fn bodies<const N: usize>(parts: [Vec<u8>; N]) -> [Bytes; N] {
    let total: usize = parts.iter().map(Vec::len).sum();
    if parts.iter().all(|p| p.len() < MIN_BODY) || total == 0 {
        return parts.map(Bytes::from);
    }
    match Mapping::new(&parts, total) {
        Ok(mapping) => {
            let whole = Bytes::from_owner(mapping);
            let mut offset = 0;
            parts.map(|p| {
                let part = whole.slice(offset..offset + p.len());
                offset += p.len();
                part
            })
        }
        Err(e) => {
            let mut warned = WARNED.lock().unwrap_or_else(|p| p.into_inner());
            if !*warned {
                *warned = true;
                tracing::warn!(error = %e, "bodies stay in ordinary memory (no memory file): writes copy them");
            }
            parts.map(Bytes::from)
        }
    }
}

/// The file and offset that hold `slice`, when it lies inside a recorded mapping.
fn lookup(slice: &[u8]) -> Option<(i32, usize)> {
    if slice.len() < MIN_BODY {
        return None;
    }
    let start = slice.as_ptr() as usize;
    let map = MAPPED.read().unwrap_or_else(|p| p.into_inner());
    let (&base, &(end, fd)) = map.range(..=start).next_back()?;
    (start + slice.len() <= end).then_some((fd, start - base))
}

/// One sealed memory file and its read-only mapping.
struct Mapping {
    ptr: *mut libc::c_void,
    len: usize,
    fd: i32,
}

// SAFETY: the mapping is read-only and never changes; it is unmapped once, on drop.
unsafe impl Send for Mapping {}
unsafe impl Sync for Mapping {}

impl AsRef<[u8]> for Mapping {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: ptr..ptr+len is mapped readable for as long as self lives.
        unsafe { std::slice::from_raw_parts(self.ptr.cast::<u8>(), self.len) }
    }
}

impl Mapping {
    #[cfg(target_os = "linux")]
    fn new(parts: &[Vec<u8>], total: usize) -> io::Result<Self> {
        if COUNT.fetch_add(1, Ordering::Relaxed) >= MAX_MAPPED {
            COUNT.fetch_sub(1, Ordering::Relaxed);
            return Err(io::Error::other(format!("{MAX_MAPPED} memory files already")));
        }
        // SAFETY: plain system calls on a file this function owns until it returns it inside
        // the Mapping (or closes it on error).
        unsafe {
            let fd = libc::memfd_create(c"site-body".as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING);
            if fd < 0 {
                COUNT.fetch_sub(1, Ordering::Relaxed);
                return Err(io::Error::last_os_error());
            }
            let fail = |fd: i32| {
                let e = io::Error::last_os_error();
                libc::close(fd);
                COUNT.fetch_sub(1, Ordering::Relaxed);
                e
            };
            for part in parts {
                let mut rest: &[u8] = part;
                while !rest.is_empty() {
                    let n = libc::write(fd, rest.as_ptr().cast(), rest.len());
                    if n <= 0 {
                        return Err(fail(fd));
                    }
                    rest = &rest[n as usize..];
                }
            }
            let seals = libc::F_SEAL_SEAL | libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_WRITE;
            if libc::fcntl(fd, libc::F_ADD_SEALS, seals) != 0 {
                return Err(fail(fd));
            }
            // Populated: the pages are mapped at once, so the process's resident memory counts them
            // as it counted the heap bytes they replace.
            let flags = libc::MAP_SHARED | libc::MAP_POPULATE;
            let ptr = libc::mmap(std::ptr::null_mut(), total, libc::PROT_READ, flags, fd, 0);
            if ptr == libc::MAP_FAILED {
                return Err(fail(fd));
            }
            let start = ptr as usize;
            MAPPED.write().unwrap_or_else(|p| p.into_inner()).insert(start, (start + total, fd));
            Ok(Self { ptr, len: total, fd })
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn new(_: &[Vec<u8>], _: usize) -> io::Result<Self> {
        Err(io::Error::other("memory files are Linux's"))
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        MAPPED.write().unwrap_or_else(|p| p.into_inner()).remove(&(self.ptr as usize));
        // SAFETY: unrecorded above, so no write looks this mapping up any more; no Bytes over
        // it is left (this is its owner's drop). Pages the kernel still sends from stay its own.
        unsafe {
            libc::munmap(self.ptr, self.len);
            libc::close(self.fd);
        }
        COUNT.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The connection's socket: reads as the socket's (after the bytes given back with
/// [`Stream::give_back`]), writes as described in the module documentation.
pub struct Stream(TcpStream, Bytes);

impl Stream {
    pub fn new(stream: TcpStream) -> Self {
        Self(stream, Bytes::new())
    }

    /// Bytes read off the socket but not answered (`wire` hands a request it does not answer
    /// to hyper): the next reads return them first, then the socket's.
    pub fn give_back(&mut self, bytes: Bytes) {
        self.1 = bytes;
    }

    /// One attempt at writing `bufs` with the body at `index` from its file: the slices before
    /// it with `sendmsg(MSG_MORE)`, then the body with `sendfile`. Bytes written, or WouldBlock
    /// when none was.
    #[cfg(target_os = "linux")]
    fn send_with_file(&self, bufs: &[IoSlice<'_>], index: usize, fd: i32, offset: usize) -> io::Result<usize> {
        use std::os::fd::AsRawFd;
        let socket = self.0.as_raw_fd();
        let head = &bufs[..index];
        let head_len: usize = head.iter().map(|b| b.len()).sum();
        if head_len > 0 {
            // SAFETY: msg points at the caller's slices, alive for the call.
            let sent = unsafe {
                let mut msg: libc::msghdr = std::mem::zeroed();
                msg.msg_iov = head.as_ptr() as *mut libc::iovec;
                msg.msg_iovlen = head.len() as _;
                libc::sendmsg(socket, &msg, libc::MSG_MORE | libc::MSG_NOSIGNAL)
            };
            if sent < 0 {
                return Err(io::Error::last_os_error());
            }
            if (sent as usize) < head_len {
                return Ok(sent as usize);
            }
        }
        let mut file_offset = offset as libc::off_t;
        // SAFETY: fd is the live memory file holding bufs[index] (see `lookup`).
        let sent = unsafe { libc::sendfile(socket, fd, &mut file_offset, bufs[index].len()) };
        match sent {
            n if n >= 0 => Ok(head_len + n as usize),
            _ if head_len > 0 => Ok(head_len),
            _ => Err(io::Error::last_os_error()),
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn send_with_file(&self, _: &[IoSlice<'_>], _: usize, _: i32, _: usize) -> io::Result<usize> {
        Err(io::Error::other("sendfile is Linux's"))
    }
}

impl AsyncRead for Stream {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.1.is_empty() {
            let n = this.1.len().min(buf.remaining());
            buf.put_slice(&this.1.split_to(n));
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.poll_write_vectored(cx, &[IoSlice::new(buf)])
    }

    fn poll_write_vectored(self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[IoSlice<'_>]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let found = bufs
            .iter()
            .enumerate()
            .find_map(|(i, b)| lookup(b).map(|(fd, offset)| (i, fd, offset)));
        let Some((index, fd, offset)) = found else {
            return Pin::new(&mut this.0).poll_write_vectored(cx, bufs);
        };
        loop {
            ready!(this.0.poll_write_ready(cx))?;
            match this.0.try_io(Interest::WRITABLE, || this.send_with_file(bufs, index, fd, offset)) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                result => return Poll::Ready(result),
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_share_one_sealed_file_and_read_back_as_written() {
        let big: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
        let small = b"tiny".to_vec();
        let [a, b, c] = bodies([big.clone(), small.clone(), Vec::new()]);
        assert_eq!(&a[..], &big[..]);
        assert_eq!(&b[..], &small[..]);
        assert!(c.is_empty());
        if cfg!(target_os = "linux") {
            let (fd, offset) = lookup(&a).expect("the big body is in a recorded mapping");
            assert_eq!(offset, 0);
            // Sealed: the file cannot be written to.
            // SAFETY: fd is the live mapping's file.
            let wrote = unsafe { libc::pwrite(fd, b"x".as_ptr().cast(), 1, 0) };
            assert!(wrote < 0, "a sealed memory file took a write");
            assert!(lookup(&a[10..10 + MIN_BODY]).is_some(), "a slice inside the mapping is found");
            assert!(lookup(&b).is_none(), "a part below MIN_BODY is not sent from the file");
            let start = a.as_ptr() as usize;
            drop((a, b, c));
            let map = MAPPED.read().unwrap_or_else(|p| p.into_inner());
            assert!(
                map.get(&start).is_none_or(|&(_, other)| other != fd),
                "a dropped mapping stays recorded"
            );
        }
    }

    #[test]
    fn small_bodies_stay_heap_bytes() {
        let [a] = bodies([vec![7u8; MIN_BODY - 1]]);
        assert!(lookup(&a).is_none());
        assert_eq!(a.len(), MIN_BODY - 1);
    }
}

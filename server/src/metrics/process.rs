//! The process's own figures (`process_*`), read from /proc at each scrape.

use std::fmt::Write as _;

/// The process's own figures, read from /proc at scrape time under the names every
/// Prometheus client library uses (`process_…`), so stock dashboards and memory or restart
/// alerts work. A figure that cannot be read (not Linux, /proc hidden) is left out.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct ProcessFigures {
    pub cpu_seconds: Option<f64>,
    pub start_time_seconds: Option<f64>,
    pub resident_bytes: Option<u64>,
    pub virtual_bytes: Option<u64>,
    pub open_fds: Option<u64>,
    pub max_fds: Option<u64>,
}

/// The clock ticks /proc counts CPU time and start times in: USER_HZ, 100 on every Linux
/// the server runs on (the Prometheus clients assume the same).
const USER_HZ: f64 = 100.0;

impl ProcessFigures {
    pub fn read() -> Self {
        let read = |path: &str| std::fs::read_to_string(path).ok();
        let mut figures = Self::default();
        if let Some(stat) = read("/proc/self/stat") {
            let boot = read("/proc/stat").and_then(|s| boot_time(&s));
            (figures.cpu_seconds, figures.start_time_seconds) = from_stat(&stat, boot);
        }
        if let Some(status) = read("/proc/self/status") {
            figures.resident_bytes = status_kb(&status, "VmRSS:").map(|kb| kb * 1024);
            figures.virtual_bytes = status_kb(&status, "VmSize:").map(|kb| kb * 1024);
        }
        figures.open_fds = std::fs::read_dir("/proc/self/fd").ok().map(|d| d.count() as u64);
        figures.max_fds = read("/proc/self/limits").and_then(|l| max_open_files(&l));
        figures
    }

    pub(super) fn write(&self, out: &mut String) {
        let mut series = |name: &str, kind: &str, help: &str, value: Option<f64>| {
            if let Some(v) = value {
                let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
            }
        };
        series(
            "process_cpu_seconds_total",
            "counter",
            "Total user and system CPU time spent in seconds.",
            self.cpu_seconds,
        );
        series(
            "process_start_time_seconds",
            "gauge",
            "Start time of the process since unix epoch in seconds.",
            self.start_time_seconds,
        );
        series(
            "process_resident_memory_bytes",
            "gauge",
            "Resident memory size in bytes.",
            self.resident_bytes.map(|b| b as f64),
        );
        series(
            "process_virtual_memory_bytes",
            "gauge",
            "Virtual memory size in bytes.",
            self.virtual_bytes.map(|b| b as f64),
        );
        series(
            "process_open_fds",
            "gauge",
            "Number of open file descriptors.",
            self.open_fds.map(|n| n as f64),
        );
        series(
            "process_max_fds",
            "gauge",
            "Maximum number of open file descriptors.",
            self.max_fds.map(|n| n as f64),
        );
    }
}

/// CPU seconds (user + system) and the start time (Unix seconds, given the boot time) from
/// /proc/self/stat. Its second field, the command name, is in parentheses and may hold
/// spaces: the fields are counted after its closing one.
fn from_stat(stat: &str, boot_time: Option<u64>) -> (Option<f64>, Option<f64>) {
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return (None, None);
    };
    // After ")": field 3 (state) is the first; utime is 14, stime 15, starttime 22.
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok());
    let cpu = match (field(14), field(15)) {
        (Some(user), Some(system)) => Some((user + system) as f64 / USER_HZ),
        _ => None,
    };
    let start = match (field(22), boot_time) {
        (Some(ticks), Some(boot)) => Some(boot as f64 + ticks as f64 / USER_HZ),
        _ => None,
    };
    (cpu, start)
}

/// The boot time (Unix seconds), the `btime` line of /proc/stat.
fn boot_time(stat: &str) -> Option<u64> {
    stat.lines()
        .find_map(|l| l.strip_prefix("btime "))
        .and_then(|v| v.trim().parse().ok())
}

/// A `Name:   1234 kB` line of /proc/self/status, in kB.
fn status_kb(status: &str, key: &str) -> Option<u64> {
    let line = status.lines().find_map(|l| l.strip_prefix(key))?;
    line.split_whitespace().next()?.parse().ok()
}

/// The soft limit of `Max open files` in /proc/self/limits (None when unlimited).
fn max_open_files(limits: &str) -> Option<u64> {
    let line = limits.lines().find_map(|l| l.strip_prefix("Max open files"))?;
    line.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_figures_are_read_as_proc_writes_them() {
        // A command name with a space and a parenthesis, as a thread may set it.
        let stat = "4242 (site (x) 1) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 75 0 0 20 0 9 0 12345 123456789 2048 18446744073709551615";
        let (cpu, start) = from_stat(stat, Some(1_700_000_000));
        assert_eq!(cpu, Some(3.25));
        assert_eq!(start, Some(1_700_000_123.45));
        assert_eq!(boot_time("cpu  1 2 3\nbtime 1700000000\nprocesses 5\n"), Some(1_700_000_000));
        let status = "Name:\tsite\nVmSize:\t  123456 kB\nVmRSS:\t   20480 kB\n";
        assert_eq!(status_kb(status, "VmRSS:"), Some(20480));
        assert_eq!(status_kb(status, "VmSize:"), Some(123456));
        let limits = "Limit                     Soft Limit           Hard Limit           Units\nMax open files            65536                524288               files\n";
        assert_eq!(max_open_files(limits), Some(65536));
        #[cfg(target_os = "linux")]
        {
            let now = ProcessFigures::read();
            assert!(
                now.resident_bytes.is_some_and(|b| b > 0) && now.open_fds.is_some_and(|n| n > 0),
                "{now:?}"
            );
            assert!(now.start_time_seconds.is_some_and(|t| t > 1_600_000_000.0), "{now:?}");
        }
    }
}

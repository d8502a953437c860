//! Staff accounts: the `site staff` command on both stores (in process) and as the real
//! binary reads its password from standard input; sessions and the audit log in the store.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use site_server::staff::password::verify_password;
use site_server::store::{NewAudit, NewSession, Store, now_ms};

use common::stores::stores;

async fn staff(store: &Store, args: &[&str], stdin: &str) -> Result<String, String> {
    common::admin::staff_command(store, args, stdin, now_ms()).await
}

#[tokio::test]
async fn the_staff_command_adds_lists_and_disables_accounts_on_both_stores() {
    for (name, store) in stores().await {
        let added = staff(&store, &["add", "Dana@RingReady.example"], "a long passphrase\n")
            .await
            .expect("add");
        assert!(added.contains("added staff account dana@ringready.example"), "{name}: {added}");
        let login = store.staff_login("DANA@ringready.example").await.expect("read").expect("stored");
        assert!(login.active, "{name}");
        assert!(login.password_hash.starts_with("$argon2id$"), "{name}: argon2id");
        assert!(verify_password("a long passphrase", &login.password_hash), "{name}");
        assert!(!login.password_hash.contains("passphrase"), "{name}: never the password itself");

        let again = staff(&store, &["add", "dana@ringready.example"], "another passphrase\n").await;
        assert_eq!(again, Err("dana@ringready.example already has a staff account".into()), "{name}");
        let short = staff(&store, &["add", "sam@ringready.example"], "short pass\n").await;
        assert_eq!(short, Err("the password must be at least 12 characters long".into()), "{name}");
        let empty = staff(&store, &["add", "sam@ringready.example"], "").await.expect_err("no password");
        assert!(empty.contains("standard input"), "{name}: {empty}");
        let bad = staff(&store, &["add", "not an address"], "a long passphrase\n")
            .await
            .expect_err("bad address");
        assert!(bad.contains("is not an e-mail address"), "{name}: {bad}");
        assert!(store.staff_login("sam@ringready.example").await.expect("read").is_none(), "{name}");

        staff(&store, &["add", "sam@ringready.example"], "twelve chars\r\n")
            .await
            .expect("add a second");
        let list = staff(&store, &["list"], "").await.expect("list");
        let lines: Vec<&str> = list.lines().collect();
        assert_eq!(lines.len(), 2, "{name}: {list}");
        assert!(lines[0].starts_with("dana@ringready.example\tactive\tsince "), "{name}: {list}");
        assert!(!list.contains("argon2"), "{name}: the list never shows hashes");

        // A disabled account's sessions end with it.
        let dana = store.staff_login("dana@ringready.example").await.expect("read").expect("dana");
        let session = NewSession {
            id_hash: "a".repeat(64),
            staff_id: dana.id,
            ip: Some("127.0.0.1".into()),
            user_agent: None,
        };
        let login_audit = NewAudit {
            staff_id: Some(dana.id),
            action: "login",
            target: None,
            ip: Some("127.0.0.1".into()),
            detail: None,
        };
        store.create_session(session, login_audit, now_ms()).await.expect("session");
        assert!(store.session(&"a".repeat(64)).await.expect("read").is_some(), "{name}");
        let disabled = staff(&store, &["disable", "Dana@ringready.example"], "").await.expect("disable");
        assert!(disabled.contains("disabled dana@ringready.example"), "{name}");
        assert!(
            store.session(&"a".repeat(64)).await.expect("read").is_none(),
            "{name}: sessions ended"
        );
        assert!(
            !store
                .staff_login("dana@ringready.example")
                .await
                .expect("read")
                .expect("kept")
                .active,
            "{name}"
        );
        let list = staff(&store, &["list"], "").await.expect("list");
        assert!(list.contains("dana@ringready.example\tdisabled"), "{name}: {list}");
        let missing = staff(&store, &["disable", "nobody@ringready.example"], "").await;
        assert_eq!(missing, Err("nobody@ringready.example has no staff account".into()), "{name}");
        assert!(
            staff(&store, &["remove", "x@y.example"], "")
                .await
                .expect_err("usage")
                .contains("unrecognized subcommand 'remove'"),
            "{name}"
        );

        let log = store.audit_log(None, 10).await.expect("audit");
        let actions: Vec<&str> = log.iter().map(|e| e.action.as_str()).collect();
        assert_eq!(
            actions,
            ["staff_disable", "login", "staff_add", "staff_add"],
            "{name}: newest first"
        );
        assert_eq!(log[1].staff_email.as_deref(), Some("dana@ringready.example"), "{name}");
        let older = store.audit_log(Some(log[1].id), 10).await.expect("page");
        assert_eq!(older.len(), 2, "{name}: keyset paging");
    }
}

#[tokio::test]
async fn sessions_are_found_by_hash_touched_and_ended() {
    for (name, store) in stores().await {
        staff(&store, &["add", "kim@ringready.example"], "correct horse battery\n")
            .await
            .expect("add");
        let kim = store.staff_login("kim@ringready.example").await.expect("read").expect("kim");
        let t = now_ms();
        let session = NewSession {
            id_hash: "b".repeat(64),
            staff_id: kim.id,
            ip: None,
            user_agent: Some("test".into()),
        };
        let audit = NewAudit {
            staff_id: Some(kim.id),
            action: "login",
            target: None,
            ip: None,
            detail: None,
        };
        store.create_session(session, audit, t).await.expect("create");
        let found = store.session(&"b".repeat(64)).await.expect("read").expect("found");
        assert_eq!(
            (found.staff_id, found.email.as_str(), found.created_ms, found.last_seen_ms),
            (kim.id, "kim@ringready.example", t, t),
            "{name}"
        );
        store.touch_session(&"b".repeat(64), t + 5000).await.expect("touch");
        store
            .touch_session(&"b".repeat(64), t + 1000)
            .await
            .expect("an older touch never goes back");
        assert_eq!(
            store.session(&"b".repeat(64)).await.expect("read").expect("found").last_seen_ms,
            t + 5000,
            "{name}"
        );
        let logout = NewAudit {
            staff_id: Some(kim.id),
            action: "logout",
            target: None,
            ip: None,
            detail: None,
        };
        store.end_session(&"b".repeat(64), Some(logout), t + 6000).await.expect("end");
        assert!(store.session(&"b".repeat(64)).await.expect("read").is_none(), "{name}");
        assert_eq!(store.audit_log(None, 1).await.expect("audit")[0].action, "logout", "{name}");
    }
}

#[test]
fn the_binary_reads_the_password_from_standard_input_only() {
    let db = common::temp_dir("staff-cli").join("site.db");
    let site = |args: &[&str], stdin: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_site"))
            .env("DATABASE_URL", format!("sqlite:{}", db.display()))
            .env("RUST_LOG", "warn")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start site");
        child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write");
        let out = child.wait_with_output().expect("wait");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, out, err) = site(&["staff", "add", "lee@ringready.example"], "lee's own passphrase\n");
    assert!(ok, "{out}{err}");
    assert!(out.contains("added staff account lee@ringready.example"), "{out}");
    let (ok, out, _) = site(&["staff", "list"], "");
    assert!(ok && out.starts_with("lee@ringready.example\tactive"), "{out}");
    let (ok, _, err) = site(&["staff", "add", "lee2@ringready.example"], "too short\n");
    assert!(!ok && err.contains("at least 12 characters"), "{err}");
    let (ok, _, err) = site(&["staff", "add", "lee3@ringready.example", "a-password-argument"], "");
    assert!(
        !ok && err.contains("unexpected argument 'a-password-argument'"),
        "a password argument is refused: {err}"
    );
    let (ok, out, _) = site(&["staff", "disable", "lee@ringready.example"], "");
    assert!(ok && out.contains("disabled"), "{out}");
}

//! docs/scaling.md's Slurm job array, run for real: a one-node Slurm cluster brought up from
//! Debian's packages (munge, slurmctld, slurmd) in a folder of its own, the documented
//! `tournament.sbatch` submitted as written, the shards merged with `take5 stats` and compared
//! with an unsharded run field for field; and a task cancelled (`scancel`) half-way, then the
//! array submitted again, the task continuing its own file.
//!
//! Ignored by default: it needs root and the packages (`apt-get install slurm-wlm munge`).
//! .ci/run installs them and runs it (`cargo test --test all -- --ignored slurm_`).

use crate::common;

use common::{ok, take5, wait_until};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// A one-node cluster: munged, slurmctld and slurmd as children of the test, their files (the
/// configuration, the state, the logs, munge's key and socket) in one folder.
struct Cluster {
    dir: PathBuf,
    daemons: Vec<Child>,
}

/// The short host name, as slurmd finds its node by it.
fn host() -> String {
    let out = Command::new("hostname").arg("-s").output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        for program in ["munged", "mungekey", "slurmctld", "slurmd", "sbatch"] {
            assert!(
                Command::new("sh")
                    .args(["-c", &format!("command -v {program}")])
                    .status()
                    .unwrap()
                    .success(),
                "{program} is not installed: apt-get install slurm-wlm munge"
            );
        }
        // SAFETY: a plain system call.
        assert_eq!(unsafe { libc::geteuid() }, 0, "the daemons run as root");
        let munge = dir.join("munge");
        std::fs::create_dir_all(&munge).unwrap();
        let key = munge.join("munge.key");
        let status = Command::new("mungekey")
            .args(["--create", "--keyfile"])
            .arg(&key)
            .status()
            .unwrap();
        assert!(status.success());
        let socket = munge.join("munge.socket");
        let mut cluster = Cluster {
            dir: dir.to_path_buf(),
            daemons: Vec::new(),
        };
        cluster.spawn(
            Command::new("munged")
                .arg("--foreground")
                .arg("--force")
                .arg("--key-file")
                .arg(&key)
                .arg("--socket")
                .arg(&socket)
                .arg("--pid-file")
                .arg(munge.join("munged.pid"))
                .arg("--log-file")
                .arg(munge.join("munged.log"))
                .arg("--seed-file")
                .arg(munge.join("munged.seed")),
        );
        assert!(
            wait_until(|| socket.exists() || cluster.exited()),
            "munged did not start: {}",
            cluster.logs()
        );
        assert!(!cluster.exited(), "munged ended: {}", cluster.logs());
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        let host = host();
        let d = dir.display();
        let conf = format!(
            "ClusterName=take5
SlurmctldHost={host}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={socket}
CredType=cred/munge
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
KillWait=5
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=take5 Nodes={host} Default=YES MaxTime=INFINITE State=UP
",
            socket = socket.display()
        );
        for sub in ["state", "spool"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        std::fs::write(dir.join("slurm.conf"), conf).unwrap();
        let conf = dir.join("slurm.conf");
        cluster.spawn(
            Command::new("slurmctld")
                .args(["-D", "-i", "-f"])
                .arg(&conf),
        );
        cluster.spawn(Command::new("slurmd").args(["-D", "-f"]).arg(&conf));
        let ready = wait_until(|| {
            let out = cluster.sh("sinfo -h -o %T", dir);
            cluster.exited()
                || out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == "idle"
        }) && !cluster.exited();
        assert!(ready, "the node is not idle: {}", cluster.logs());
        cluster
    }

    /// Whether a daemon has ended (it failed: they run until the test stops them).
    fn exited(&mut self) -> bool {
        self.daemons
            .iter_mut()
            .any(|d| !matches!(d.try_wait(), Ok(None)))
    }

    fn spawn(&mut self, command: &mut Command) {
        let child = command
            .env("SLURM_CONF", self.dir.join("slurm.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        self.daemons.push(child);
    }

    /// Runs a shell command in `cwd` for the cluster, take5 on its PATH.
    fn sh(&self, command: &str, cwd: &Path) -> Output {
        let bin = Path::new(env!("CARGO_BIN_EXE_take5")).parent().unwrap();
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Command::new("sh")
            .args(["-e", "-c", command])
            .current_dir(cwd)
            .env("SLURM_CONF", self.dir.join("slurm.conf"))
            .env("PATH", path)
            .output()
            .unwrap()
    }

    /// The job id `sbatch` printed (`Submitted batch job 12`).
    fn submit(&self, command: &str, cwd: &Path) -> String {
        let out = self.sh(command, cwd);
        assert!(out.status.success(), "{out:?}\n{}", self.logs());
        let text = String::from_utf8(out.stdout).unwrap();
        text.trim()
            .strip_prefix("Submitted batch job ")
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    }

    /// Waits until job `id` (every task of an array) has left the queue.
    fn wait(&self, id: &str, cwd: &Path) {
        let gone = wait_until(|| {
            let out = self.sh(&format!("squeue -h -j {id}"), cwd);
            out.status.success() && out.stdout.is_empty()
        });
        assert!(gone, "job {id} still queued: {}", self.logs());
    }

    fn logs(&self) -> String {
        ["slurmctld.log", "slurmd.log", "munge/munged.log"]
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(self.dir.join(f)).unwrap_or_default();
                let tail: Vec<&str> = text.lines().rev().take(20).collect();
                format!(
                    "--- {f}:\n{}",
                    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for child in self.daemons.iter_mut().rev() {
            // SAFETY: a signal to the test's own child, by its id.
            unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn page() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scaling.md")).unwrap()
}

fn folder(name: &str) -> PathBuf {
    common::fresh_folder(name)
}

/// The unsharded run of `DIR/pool.yaml`: its statistics as JSON, its games by id (without
/// their decision times).
fn unsharded(dir: &Path) -> (String, Vec<Value>) {
    let whole = dir.join("whole.jsonl");
    let stats = ok(&take5(&[
        "tournament",
        dir.join("pool.yaml").to_str().unwrap(),
        "--results",
        whole.to_str().unwrap(),
        "--format",
        "json",
    ]));
    (stats, games(&[whole]))
}

fn games(files: &[PathBuf]) -> Vec<Value> {
    let mut games: Vec<Value> = files
        .iter()
        .flat_map(|f| common::game_lines(f))
        .map(|l| {
            let mut game: Value = serde_json::from_str(&l).unwrap();
            // Decision times differ from run to run; the games are the rest.
            game.as_object_mut().unwrap().remove("times");
            game
        })
        .collect();
    games.sort_by_key(|g| g["game"].as_u64().unwrap());
    games
}

/// The merge command of the page, as JSON.
fn merged(cluster: &Cluster, dir: &Path) -> String {
    let merge = common::doc_block(&page(), "sh slurm-merge");
    let out = cluster.sh(&format!("{} --format json", merge.trim()), dir);
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

const SHARDS: [&str; 4] = ["1/4", "2/4", "3/4", "4/4"];

/// Submits the array as written in `dir` and waits for it; checks that the merge is the
/// unsharded run's, field for field, and the shards' games its games, each once. The job's id.
fn array_as_written(cluster: &Cluster, dir: &Path) -> String {
    let (expected, whole) = unsharded(dir);
    let job = cluster.submit("sbatch tournament.sbatch", dir);
    cluster.wait(&job, dir);
    let shards: Vec<PathBuf> = (1..=4)
        .map(|k| dir.join(format!("shard-{k}.jsonl")))
        .collect();
    assert_eq!(
        common::unsharded(&merged(cluster, dir), &SHARDS),
        serde_json::from_str::<Value>(&expected).unwrap()
    );
    assert_eq!(
        games(&shards),
        whole,
        "every game once, as the unsharded run's"
    );
    job
}

#[test]
#[ignore = "needs root, munge and Slurm (slurm-wlm): .ci/run installs them"]
fn slurm_runs_the_documented_job_array_and_a_cancelled_task_resumes() {
    // The cluster's folder has a short path: slurmd and munged put Unix sockets in it, whose
    // paths have at most 107 bytes (the test's temporary folder is longer).
    let home = std::env::temp_dir().join(format!("take5-slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let cluster = Cluster::start(&home);
    let page = page();
    let script = common::doc_block(&page, "sh slurm-sbatch");

    // The documented array as written, on the documented pool.
    let dir = folder("array");
    std::fs::write(
        dir.join("pool.yaml"),
        common::doc_block(&page, "yaml scaling-pool"),
    )
    .unwrap();
    std::fs::write(dir.join("tournament.sbatch"), &script).unwrap();
    array_as_written(&cluster, &dir);

    // A task cancelled half-way: its table without the gated bot is played, then the bot waits
    // at its start for a gate; the task is cancelled there, the gate opened, and the array
    // submitted again, as written: task 2 continues its file.
    let dir = folder("preempted");
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bots/python_bot.py");
    let gate = dir.join("gate");
    let pool = format!(
        "bots:
  - {{name: random, player: 'builtin:random'}}
  - {{name: lowest, player: 'builtin:lowest'}}
  - {{name: highest, player: 'builtin:highest'}}
  - {{name: gated, player: \"sh -c 'while [ ! -e {gate} ]; do sleep 0.1; done; exec python3 {python}'\", startup_timeout_ms: 3600000}}
seats: 3
deals: 10
seed: 2026
format: round-robin
",
        gate = gate.display(),
        python = python.display()
    );
    std::fs::write(dir.join("pool.yaml"), pool).unwrap();
    std::fs::write(dir.join("tournament.sbatch"), &script).unwrap();
    let shard = dir.join("shard-2.jsonl");
    let task = cluster.submit("sbatch --array=2 tournament.sbatch", &dir);
    // Table 0 (random, lowest, highest) is games 0 to 29: shard 2 has 8 of them (1, 5, ... 29),
    // after its header; the next table waits for the gate.
    assert!(
        wait_until(|| common::line_count(&shard) >= 9),
        "{}",
        cluster.logs()
    );
    let out = cluster.sh(&format!("scancel {task}"), &dir);
    assert!(out.status.success(), "{out:?}");
    cluster.wait(&task, &dir);
    assert_eq!(
        common::line_count(&shard),
        9,
        "only table 0's games were played"
    );
    std::fs::write(&gate, "").unwrap();
    let job = array_as_written(&cluster, &dir);
    // Task 2 of the second array continued its file: 22 of the shard's 30 games to play.
    let said = std::fs::read_to_string(dir.join(format!("slurm-{job}_2.out"))).unwrap();
    assert!(said.contains("shard 2/4), 22 to play"), "{said}");
}

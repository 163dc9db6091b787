//! The bot kits (sdk/python/take5bot.py, sdk/js/take5bot.mjs) read the protocol into plain
//! objects, keep the keys they do not know, and fold the events into the round's table. (That
//! their example bots play every variant correctly is tests/selftest.rs.)

use std::path::Path;
use std::process::Command;

const LINES: &str = "\
hello version=1
game number=0 variant=classic seats=2 seat=0 rows=3 row_capacity=3 hand_size=4 end=rounds:1 lowest=1 bullheads=1,1,1,1,2,1,1,1,1,3,5,1,1,1,2,1,1,1,1,3 seed=7 time_ms=250
event deal round=1 hand=2,8,11,18 rows=10,16,12
ask play seat=0 round=1 turn=1 hand=2,8,11,18 rows=10/16/12 scores=0,0 taken=0,0
event reveal round=1 turn=1 cards=11,3
event take seat=1 row=1 cards=16 bullheads=1 reason=low
event place seat=1 card=3 row=1
event place seat=0 card=11 row=0
ask row seat=0 round=1 turn=2 card=2 hand=8,18 rows=10,11/3/12 scores=0,0 taken=0,1 revealed=2,9 time_left_ms=950 increment_ms=100
error illegal no_such_row: there is no row 7 (2 tries left)
bye
";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `program args` from the repository's root with LINES on stdin; its stdout.
fn run(program: &str, args: &[&str]) -> String {
    use std::io::Write;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(LINES.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{program}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// What both kits' test bots print: their answers, then what they saw.
const EXPECTED: &str = "\
hello version=1 name=kit_test
play 2
row 2
row 0
game seed=7 time_ms=250 variant=classic heads(10)=3
ask row card=2 rows=[[10,11],[3],[12]] revealed=[2,9]
clock=950+100 budget=575
seen=2,3,8,10,11,12,16,18 taken=1:1 errors=1
";

#[test]
fn the_python_kit_reads_the_lines_and_folds_the_events() {
    let script = r#"
import sys
sys.path.insert(0, "sdk/python")
import take5bot

class Bot(take5bot.Bot):
    name = "kit_test"
    def choose(self, ask):
        if ask.kind == "play":
            return take5bot.play(min(ask.hand))
        self.last = ask
        return [take5bot.row(2), take5bot.row(0)]

bot = Bot()
take5bot.run(bot)
g, a, t = bot.game, bot.last, bot.table
j = lambda v: str(v).replace(" ", "")
print(f"game seed={g.seed} time_ms={g.get('time_ms')} variant={g.variant} heads(10)={g.heads(10)}")
print(f"ask {a.kind} card={a.card} rows={j(a.rows)} revealed={j(a.revealed)}")
left, increment = a.clock()
print(f"clock={left}+{increment} budget={a.budget(g)}")
taken = ",".join(f"{k}:{v}" for k, v in t.taken.items())
print(f"seen={','.join(map(str, sorted(t.seen)))} taken={taken} errors={len(bot.errors)}")
"#;
    assert_eq!(run("python3", &["-c", script]), EXPECTED);
}

#[test]
fn the_js_kit_reads_the_lines_and_folds_the_events() {
    // The kit's `run` exits at the end of the input: the bot reports on the way out.
    let script = r#"
import { run, play, row } from "./sdk/js/take5bot.mjs";
let last, state;
run({
  name: "kit_test",
  choose(ask, s) {
    state = s;
    if (ask.kind === "play") return play(Math.min(...ask.hand));
    last = ask;
    return [row(2), row(0)];
  },
});
process.on("exit", () => {
  const { game, table, errors } = state;
  const j = (v) => JSON.stringify(v);
  const taken = [...table.taken].map(([k, v]) => `${k}:${v}`).join(",");
  process.stdout.write([
    `game seed=${game.seed} time_ms=${game.fields.time_ms} variant=${game.variant} heads(10)=${game.heads(10)}`,
    `ask ${last.kind} card=${last.card} rows=${j(last.rows)} revealed=${j(last.revealed)}`,
    `clock=${last.clock().left}+${last.clock().increment} budget=${last.budget(game)}`,
    `seen=${[...table.seen].sort((a, b) => a - b).join(",")} taken=${taken} errors=${errors.length}`,
  ].join("\n") + "\n");
});
"#;
    assert_eq!(
        run("node", &["--input-type=module", "-e", script]),
        EXPECTED
    );
}

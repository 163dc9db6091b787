//! The printers on the referee's pipe loop allocate nothing once the caller's buffer is big
//! enough, and parsing a `play` or `row` reply allocates nothing either. Counted with a global
//! allocator (the whole test program's), per thread, so other tests running at the same time
//! are not counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use take5::cards::Card;
use take5::game::{Event, Game, Illegal, RuleError, ToMove, View};
use take5::players::builtin::{Builtin, Strategy};
use take5::protocol::{ErrorKind, parse, print};
use take5::rng::{GameRng, Stream};
use take5::rules::Rules;
use take5::seat::GameStart;
use take5::variants::Variant;
use take5::variants::classic::Classic;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

struct Counting;

fn count() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations_in(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// Prints every line a referee sends in a whole 5-seat game; returns the allocations made by
/// the printers alone.
fn printer_allocations(out: &mut String) -> usize {
    let rules = Arc::new(Rules::classic());
    let mut game = Classic::new(rules.clone(), 5).unwrap();
    let mut dealer = GameRng::new(3, Stream::Deal(0));
    let mut bot = Builtin::new(Strategy::Dodger, 3);
    let mut events: Vec<Event> = Vec::new();
    let mut counted = 0;
    let mut print_view = |out: &mut String, view: &View| {
        counted += allocations_in(|| {
            out.clear();
            print::ask(out, view);
        });
    };
    let start = GameStart {
        number: 0,
        variant: Variant::Classic,
        rules: &rules,
        seats: 5,
        seat: 1,
        time_ms: 2000,
        seed: 1,
    };
    let mut fixed = allocations_in(|| {
        out.clear();
        print::hello(out);
        print::game(out, &start);
        print::illegal(
            out,
            &RuleError::Illegal(Illegal::NotInHand {
                seat: 2,
                card: Card(99),
            }),
            2,
        );
        print::refusal(out, ErrorKind::Syntax, "expected\na line", 1);
        print::bye(out);
    });
    loop {
        for event in events.drain(..) {
            fixed += allocations_in(|| {
                for seat in 0..5 {
                    out.clear();
                    print::event(out, seat, &event);
                }
            });
        }
        match game.to_move() {
            ToMove::Deal => game.deal_random(&mut dealer, &mut events).unwrap(),
            ToMove::GameOver => break,
            ToMove::Everyone(_) => {
                for seat in 0..5 {
                    let view = game.view(seat);
                    print_view(out, &view);
                    let action = bot.choose(&view);
                    game.apply(seat, action, &mut events).unwrap();
                }
            }
            ToMove::Seat(seat, _) => {
                let view = game.view(seat);
                print_view(out, &view);
                let action = bot.choose(&view);
                game.apply(seat, action, &mut events).unwrap();
            }
        }
    }
    counted + fixed
}

#[test]
fn printing_and_reading_replies_allocate_nothing() {
    // Sanity: the counter sees allocations on this thread.
    assert!(allocations_in(|| drop(vec![1u8; 10])) > 0);

    // Each is run once before it is counted: what is made once per process (the parser's
    // tables) is made by whichever test comes first, and run alone (as `cargo nextest` runs
    // each test) this one would count it.
    let mut out = String::with_capacity(4096);
    printer_allocations(&mut out);
    assert_eq!(printer_allocations(&mut out), 0);

    let read_replies = || {
        for line in ["play 17\n", "row 2\r\n", "  play\t5 "] {
            assert!(parse::from_bot(line).is_ok());
        }
    };
    read_replies();
    assert_eq!(allocations_in(read_replies), 0);
}

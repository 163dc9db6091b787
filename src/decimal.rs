//! Integers written in decimal onto a line, fast: the protocol's lines and the records' JSON
//! (cards, seats, rounds, scores) are mostly small numbers, written here from a table rather
//! than with `fmt`. Below both writers, so that neither imports the other.

use crate::cards::Card;

/// Comma-separated, no spaces; nothing for an empty list.
#[inline(always)]
pub fn list<T: Number>(out: &mut String, items: &[T]) {
    let Some((&first, rest)) = items.split_first() else {
        return;
    };
    first.write(out);
    for &item in rest {
        item.write_after(out, b',');
    }
}

/// An integer the printers write from a table below 1000 (cards, seats, rounds, scores: most
/// of the ~40 numbers of a decision's lines), with `itoa` above, never with `fmt`: these lines
/// sit on the referee's pipe loop, where `fmt` costs more than the rest of the line.
pub trait Number: Copy {
    fn write(self, out: &mut String);
    /// `separator` (ASCII), then the number: in a list, with one store for both.
    fn write_after(self, out: &mut String, separator: u8);
}

macro_rules! number {
    ($($t:ty),*) => {$(
        impl Number for $t {
            #[inline(always)]
            fn write(self, out: &mut String) {
                match u16::try_from(self) {
                    Ok(n) if n < 1000 => {
                        let entry = SMALL_NUMBERS[usize::from(n)];
                        append4(out, entry, entry >> 24);
                    }
                    _ => out.push_str(itoa::Buffer::new().format(self)),
                }
            }

            #[inline(always)]
            fn write_after(self, out: &mut String, separator: u8) {
                match u16::try_from(self) {
                    Ok(n) if n < 1000 => {
                        // The digits move up a byte, over the count, for the separator.
                        let entry = SMALL_NUMBERS[usize::from(n)];
                        append4(out, entry << 8 | u32::from(separator), 1 + (entry >> 24));
                    }
                    _ => {
                        out.push(char::from(separator));
                        out.push_str(itoa::Buffer::new().format(self));
                    }
                }
            }
        }
    )*};
}

/// Appends the first `len` (at most 4) of the 4 bytes of `bytes` (lowest first), which must be
/// ASCII, with one store into room reserved for all 4: about a third of the instructions of
/// pushing the digits of a number one by one, each with its own check for room.
#[inline(always)]
fn append4(out: &mut String, bytes: u32, len: u32) {
    debug_assert!(len <= 4 && bytes.to_le_bytes()[..len as usize].is_ascii());
    // SAFETY: the string stays UTF-8, as only ASCII bytes become part of it (`len` of them);
    // the 4 bytes written fit in the room just reserved; those past `len` lie beyond the new
    // length.
    unsafe {
        let vec = out.as_mut_vec();
        vec.reserve(4);
        let end = vec.as_mut_ptr().add(vec.len());
        std::ptr::write_unaligned(end.cast::<[u8; 4]>(), bytes.to_le_bytes());
        vec.set_len(vec.len() + len as usize);
    }
}

/// 0 to 999 in decimal: the digits in the low 3 bytes (first digit lowest), the count of
/// digits in the high byte.
static SMALL_NUMBERS: [u32; 1000] = {
    let mut table = [0u32; 1000];
    let mut n = 0;
    while n < 1000 {
        let digits: [u8; 3] = [(n / 100) as u8, (n / 10 % 10) as u8, (n % 10) as u8];
        let len = if n >= 100 {
            3
        } else if n >= 10 {
            2
        } else {
            1
        };
        let mut entry = (len as u32) << 24;
        let mut i = 0;
        while i < len {
            entry |= ((b'0' + digits[3 - len + i]) as u32) << (8 * i);
            i += 1;
        }
        table[n] = entry;
        n += 1;
    }
    table
};

number!(u8, u16, u32, u64, usize, i32);

impl Number for Card {
    #[inline(always)]
    fn write(self, out: &mut String) {
        self.0.write(out);
    }

    #[inline(always)]
    fn write_after(self, out: &mut String, separator: u8) {
        self.0.write_after(out, separator);
    }
}

-- Take a Number with three rows that all take at their 4th card, and #-piles that count their
-- bullheads three times instead of twice.
return {
  takes_at = { 4, 4, 4 },
  hash_pile_multiplier = 3,
}

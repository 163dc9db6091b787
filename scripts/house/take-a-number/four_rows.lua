-- Take a Number with four centre rows: they take at their 3rd, 4th, 5th and 6th card.
return {
  rows = 4,
  row_capacity = 5,
}

return {
  rows = 5,
  row_capacity = = 6,
}

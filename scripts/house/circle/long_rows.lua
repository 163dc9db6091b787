-- The circle game with rows of five number cards: the sixth card collects the row.
return {
  row_capacity = 5,
}

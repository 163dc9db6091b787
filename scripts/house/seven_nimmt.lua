-- "7 nimmt!": a row holds six cards, so the seventh card takes it.
return {
  row_capacity = 6,
}

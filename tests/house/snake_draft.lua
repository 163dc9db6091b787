-- The Pro variant's draft order, given to another variant.
return {
  draft = "snake",
}

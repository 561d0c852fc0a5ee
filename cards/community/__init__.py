"""Community card data: submissions, review, history, help wanted, custom cards."""

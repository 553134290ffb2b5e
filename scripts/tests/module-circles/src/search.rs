pub mod ordering;

pub struct Search;

// Used only by tests.
pub struct Helper;

//! The triage table in code: disagreements already decided against FIPS 204/205, each
//! an entry of `differential/TRIAGE.md` (which gives the case, whose verdict is right
//! and the clause that decides it). A disagreement is explained when every verifier on
//! its minority side is the entry's verifier and the case is of the entry's kind;
//! explained ones are still written out and counted, and fail nothing.

use crate::case::Case;

/// One decided disagreement.
pub struct Entry {
    /// Its name in `TRIAGE.md` and in the summary.
    pub id: &'static str,
    /// The verifier that is wrong.
    pub verifier: &'static str,
    /// Whether a case is of this kind.
    pub matches: fn(&Case) -> bool,
}

/// The decided disagreements.
pub const TABLE: &[Entry] = &[Entry {
    id: "T1 liboqs 0.13 rejects valid signatures that call UseHint(1, 0)",
    verifier: "liboqs-linked",
    matches: |c| c.mutation == crate::generate::WYCHEPROOF_USE_HINT,
}];

/// The entry that explains a disagreement on `case` whose minority is `minority`.
pub fn explain(case: &Case, minority: &[String]) -> Option<&'static str> {
    TABLE
        .iter()
        .find(|e| !minority.is_empty() && minority.iter().all(|m| m == e.verifier) && (e.matches)(case))
        .map(|e| e.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_explains_only_its_verifier_alone_on_its_kind_of_case() {
        let mut case = Case {
            suite: pqverify_core::Suite::MlDsa44,
            mutation: crate::generate::WYCHEPROOF_USE_HINT.into(),
            prehash: None,
            pk: vec![],
            msg: vec![],
            ctx: vec![],
            sig: vec![],
        };
        let liboqs = ["liboqs-linked".to_owned()];
        assert!(explain(&case, &liboqs).is_some());
        assert!(explain(&case, &["liboqs-linked".to_owned(), "noble".to_owned()]).is_none());
        assert!(explain(&case, &[]).is_none());
        case.mutation = "valid".into();
        assert!(explain(&case, &liboqs).is_none());
    }
}

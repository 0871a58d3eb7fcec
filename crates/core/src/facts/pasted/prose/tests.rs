use super::tells_of_removal;

/// A sentence that names GELI to say it is being taken away is no GELI layer; one that
/// says the disk is encrypted is, whatever the disk and wording.
#[test]
fn removal_sentences_are_not_layers() {
    for t in [
        "Detaching GELI on ada1p4.eli",
        "Killing GELI on da0p3.eli before wiping",
        "Removing the old GELI provider from nvd0p2",
        "GELI metadata on ada0p4 cleared",
        "Destroying GELI layout",
    ] {
        assert!(tells_of_removal(t), "{t}");
    }
    for t in [
        "that on the HDD is on a GELI encrypted partition",
        "ada2p3 is a GELI provider with AES-XTS",
        "Attaching GELI on ada1p4",
        "ada0p2 is clearly a GELI provider",
        "the removable da1 holds a GELI key",
    ] {
        assert!(!tells_of_removal(t), "{t}");
    }
}

//! The 32-byte hash address ADRS (FIPS 205, Section 4.2) and its 22-byte compressed
//! form for the SHA-2 sets (Section 11.2).

/// Address types (FIPS 205, Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum AdrsType {
    /// A WOTS+ hash chain step.
    WotsHash = 0,
    /// Compressing a WOTS+ public key.
    WotsPk = 1,
    /// An XMSS tree node.
    Tree = 2,
    /// A FORS tree node.
    ForsTree = 3,
    /// Compressing the FORS roots.
    ForsRoots = 4,
}

/// A hash address: layer (4 bytes), tree (12), type (4), then three 4-byte words
/// whose meaning depends on the type.
#[derive(Clone, Debug, Default)]
pub(crate) struct Adrs([u8; 32]);

impl Adrs {
    fn set_word(&mut self, offset: usize, value: u32) {
        self.0[offset..offset + 4].copy_from_slice(&value.to_be_bytes());
    }

    fn word(&self, offset: usize) -> u32 {
        u32::from_be_bytes([self.0[offset], self.0[offset + 1], self.0[offset + 2], self.0[offset + 3]])
    }

    /// The full 32 bytes (SHAKE sets).
    pub(crate) fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// ADRSc = ADRS[3] ‖ ADRS[8:16] ‖ ADRS[19] ‖ ADRS[20:32] (SHA-2 sets).
    pub(crate) fn compressed(&self) -> [u8; 22] {
        let mut c = [0u8; 22];
        self.write_compressed(&mut c);
        c
    }

    /// ADRSc written into `c` (in place, where a block is being built).
    #[inline]
    pub(crate) fn write_compressed(&self, c: &mut [u8; 22]) {
        c[0] = self.0[3];
        c[1..9].copy_from_slice(&self.0[8..16]);
        c[9] = self.0[19];
        c[10..22].copy_from_slice(&self.0[20..32]);
    }

    /// setLayerAddress.
    pub(crate) fn set_layer(&mut self, layer: u32) {
        self.set_word(0, layer);
    }

    /// setTreeAddress: 12 bytes big-endian (the tree index fits 64 bits).
    pub(crate) fn set_tree(&mut self, tree: u64) {
        self.0[4..8].fill(0);
        self.0[8..16].copy_from_slice(&tree.to_be_bytes());
    }

    /// setTypeAndClear: sets the type and zeroes the last 12 bytes.
    pub(crate) fn set_type_and_clear(&mut self, kind: AdrsType) {
        self.set_word(16, kind as u32);
        self.0[20..32].fill(0);
    }

    /// setKeyPairAddress.
    pub(crate) fn set_key_pair(&mut self, key_pair: u32) {
        self.set_word(20, key_pair);
    }

    /// getKeyPairAddress.
    pub(crate) fn key_pair(&self) -> u32 {
        self.word(20)
    }

    /// setChainAddress (WOTS+).
    pub(crate) fn set_chain(&mut self, chain: u32) {
        self.set_word(24, chain);
    }

    /// setTreeHeight (XMSS, FORS): the same word as the chain address.
    pub(crate) fn set_tree_height(&mut self, height: u32) {
        self.set_word(24, height);
    }

    /// setHashAddress (WOTS+).
    pub(crate) fn set_hash(&mut self, hash: u32) {
        self.set_word(28, hash);
    }

    /// setTreeIndex (XMSS, FORS): the same word as the hash address.
    pub(crate) fn set_tree_index(&mut self, index: u32) {
        self.set_word(28, index);
    }

    /// getTreeIndex.
    pub(crate) fn tree_index(&self) -> u32 {
        self.word(28)
    }
}

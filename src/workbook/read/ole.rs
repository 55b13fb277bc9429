//! The OLE chain check: calamine follows an OLE compound file's sector chains without a bound.

/// Whether an OLE compound file's allocation tables (FAT, or mini FAT) contain a cycle, or its
/// DIFAT chain runs longer than the file. calamine follows such chains without a bound and
/// grows memory until the process dies (found by fuzzing), so the bytes are checked first.
/// `bytes` is the whole file; tables that cannot be read are left to calamine to report.
pub(super) fn ole_chains_loop(bytes: &[u8]) -> bool {
    const FIRST_SPECIAL: u32 = 0xFFFF_FFFA;
    let u32_at = |b: &[u8], at: usize| {
        b.get(at..at + 4)
            .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
    };
    let shift = match bytes.get(0x1E..0x20) {
        Some(x) => u16::from_le_bytes([x[0], x[1]]),
        None => return false,
    };
    if shift != 9 && shift != 12 {
        return false;
    }
    let size = 1usize << shift;
    let sectors = (bytes.len() / size).saturating_sub(1);
    // Sectors as calamine reads them: from just after the header block (one sector), ids up
    // to len / size, a sector cut short by the end of the file padded with zeros.
    let sector = |id: u32| -> Option<std::borrow::Cow<'_, [u8]>> {
        if id as usize > bytes.len() / size {
            return None;
        }
        let start = size.checked_add((id as usize).checked_mul(size)?)?;
        let end = start.checked_add(size)?;
        match bytes.get(start..end) {
            Some(s) => Some(std::borrow::Cow::Borrowed(s)),
            None => {
                let mut v = bytes.get(start..).unwrap_or_default().to_vec();
                v.resize(size, 0);
                Some(std::borrow::Cow::Owned(v))
            }
        }
    };
    let words = |s: &[u8]| -> Vec<u32> {
        s.chunks_exact(4)
            .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
            .collect()
    };
    let mut fat_ids: Vec<u32> = (0..109)
        .filter_map(|i| u32_at(bytes, 0x4C + 4 * i))
        .filter(|&id| id < FIRST_SPECIAL)
        .collect();
    let mut difat = u32_at(bytes, 0x44).unwrap_or(u32::MAX);
    let mut steps = 0usize;
    while difat < FIRST_SPECIAL {
        steps += 1;
        if steps > sectors + 1 {
            return true;
        }
        let Some(s) = sector(difat) else {
            return false;
        };
        let ids = words(&s);
        let (next, list) = ids.split_last().unwrap_or((&u32::MAX, &[]));
        fat_ids.extend(list.iter().copied().filter(|&id| id < FIRST_SPECIAL));
        difat = *next;
    }
    let fat: Vec<u32> = fat_ids
        .iter()
        .filter_map(|&id| sector(id))
        .flat_map(|s| words(&s))
        .collect();
    if has_cycle(&fat) {
        return true;
    }
    // The mini FAT is itself a chain in the FAT (acyclic by now).
    let mut mini = Vec::new();
    let mut id = u32_at(bytes, 0x3C).unwrap_or(u32::MAX);
    while id < FIRST_SPECIAL && mini.len() <= bytes.len() / 4 {
        match sector(id) {
            Some(s) => mini.extend(words(&s)),
            None => break,
        }
        id = fat.get(id as usize).copied().unwrap_or(u32::MAX);
    }
    has_cycle(&mini)
}

/// Whether following `next[i]` from some `i` ever comes back (a functional graph with a loop).
fn has_cycle(next: &[u32]) -> bool {
    // 0 = unseen, 1 = on the current walk, 2 = known to end.
    let mut state = vec![0u8; next.len()];
    let mut walk = Vec::new();
    for startpoint in 0..next.len() {
        let mut i = startpoint;
        while i < next.len() && state[i] == 0 {
            state[i] = 1;
            walk.push(i);
            i = next[i] as usize;
        }
        if i < next.len() && state[i] == 1 {
            return true;
        }
        for &w in &walk {
            state[w] = 2;
        }
        walk.clear();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::sniff::OLE_MAGIC;

    #[test]
    fn looping_ole_chains_are_detected() {
        assert!(has_cycle(&[1, 2, 0]));
        assert!(has_cycle(&[0xFFFF_FFFE, 2, 1]));
        assert!(!has_cycle(&[1, 2, 0xFFFF_FFFE, 0xFFFF_FFFF]));
        // A minimal OLE header whose single FAT sector (sector 0) says sector 1 -> 1.
        let mut file = vec![0u8; 512 * 3];
        file[..8].copy_from_slice(OLE_MAGIC);
        file[0x1E] = 9;
        file[0x3C..0x40].copy_from_slice(&u32::MAX.to_le_bytes());
        file[0x44..0x48].copy_from_slice(&u32::MAX.to_le_bytes());
        for i in 0..109 {
            file[0x4C + 4 * i..0x50 + 4 * i].copy_from_slice(&u32::MAX.to_le_bytes());
        }
        file[0x4C..0x50].copy_from_slice(&0u32.to_le_bytes());
        let fat = 512;
        for i in 0..128 {
            file[fat + 4 * i..fat + 4 * i + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        }
        file[fat..fat + 4].copy_from_slice(&0xFFFF_FFFDu32.to_le_bytes());
        assert!(!ole_chains_loop(&file));
        file[fat + 4..fat + 8].copy_from_slice(&1u32.to_le_bytes());
        assert!(ole_chains_loop(&file));
    }
}

//! The OLE chain check, and reading one stream of an OLE compound file for the BIFF pre-scan.
//!
//! calamine follows an OLE file's sector chains without a bound (a directory chain that loops
//! grows memory until the process dies) and builds its FAT from every sector the DIFAT lists,
//! however many. So before calamine opens an xls file, its tables are read here from the file
//! itself (seeking, whatever the file's size): the FAT and the mini FAT must hold no cycle and
//! the FAT may not claim more sectors than the file has.

use std::io::{Read, Seek, SeekFrom};

const FIRST_SPECIAL: u32 = 0xFFFF_FFFA;
const END_OF_CHAIN: u32 = 0xFFFF_FFFE;
const DIFSECT: u32 = 0xFFFF_FFFC;

/// An OLE compound file's tables, checked.
pub(crate) struct Ole {
    size: usize,
    /// The highest sector id that lies in the file (calamine's bound).
    max_id: u64,
    fat: Vec<u32>,
    mini_fat: Vec<u32>,
    dirs: Vec<u8>,
    version: u16,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .map_or(u32::MAX, |x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
}

fn words(s: &[u8]) -> impl Iterator<Item = u32> + '_ {
    s.chunks_exact(4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
}

impl Ole {
    /// Read and check the tables. The error says what is wrong, for a "damaged" report.
    pub(crate) fn open<RS: Read + Seek>(r: &mut RS) -> Result<Ole, String> {
        let len = r.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
        let mut header = [0u8; 512];
        r.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
        r.read_exact(&mut header)
            .map_err(|_| "the OLE header is cut short".to_string())?;
        let version = u16::from_le_bytes([header[0x1A], header[0x1B]]);
        let shift = u16::from_le_bytes([header[0x1E], header[0x1F]]);
        if shift != 9 && shift != 12 {
            return Err(format!(
                "its OLE sector size is 2^{shift} bytes (only 512 and 4096 exist)"
            ));
        }
        let size = 1usize << shift;
        let max_id = len / size as u64;
        let mut ole = Ole {
            size,
            max_id,
            fat: Vec::new(),
            mini_fat: Vec::new(),
            dirs: Vec::new(),
            version,
        };
        // The FAT sectors: 109 in the header, the rest in the DIFAT chain.
        let mut fat_ids: Vec<u32> = (0..109).map(|i| u32_at(&header, 0x4C + 4 * i)).collect();
        let mut difat = u32_at(&header, 0x44);
        let mut steps = 0u64;
        while difat < FIRST_SPECIAL {
            steps += 1;
            if steps > max_id + 1 {
                return Err("its OLE DIFAT chain loops back on itself".into());
            }
            let s = ole.sector(r, difat)?;
            let mut ids: Vec<u32> = words(&s).collect();
            difat = ids.pop().unwrap_or(END_OF_CHAIN);
            fat_ids.extend(ids);
            // More FAT sectors than the file could need is no real file (calamine would load
            // them all: a few KB can list millions).
            if fat_ids.len() as u64 > max_id / 16 + 256 {
                return Err("its OLE DIFAT lists more FAT sectors than the file holds".into());
            }
        }
        for id in fat_ids.into_iter().filter(|&id| id < DIFSECT) {
            let s = ole.sector(r, id)?;
            ole.fat.extend(words(&s));
        }
        if has_cycle(&ole.fat) {
            return Err("the sector chains of its OLE container loop back on themselves".into());
        }
        ole.dirs = ole.chain(r, u32_at(&header, 0x30), u64::MAX)?;
        let mini_fat_len = u64::from(u32_at(&header, 0x40));
        if mini_fat_len > 0 {
            let bytes = ole.chain(
                r,
                u32_at(&header, 0x3C),
                mini_fat_len.saturating_mul(size as u64),
            )?;
            ole.mini_fat = words(&bytes).collect();
            if has_cycle(&ole.mini_fat) {
                return Err(
                    "the mini sector chains of its OLE container loop back on themselves".into(),
                );
            }
        }
        Ok(ole)
    }

    /// One sector, padded with zeros where the file ends (as calamine reads it).
    fn sector<RS: Read + Seek>(&self, r: &mut RS, id: u32) -> Result<Vec<u8>, String> {
        if u64::from(id) > self.max_id {
            return Err(format!(
                "its OLE tables point at sector {id}, past the end of the file"
            ));
        }
        let at = (u64::from(id) + 1) * self.size as u64;
        r.seek(SeekFrom::Start(at)).map_err(|e| e.to_string())?;
        let mut s = Vec::with_capacity(self.size);
        r.by_ref()
            .take(self.size as u64)
            .read_to_end(&mut s)
            .map_err(|e| e.to_string())?;
        s.resize(self.size, 0);
        Ok(s)
    }

    /// The bytes of a chain of sectors (acyclic by now), at most `len`.
    fn chain<RS: Read + Seek>(&self, r: &mut RS, mut id: u32, len: u64) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        while id != END_OF_CHAIN && (out.len() as u64) < len {
            if id >= FIRST_SPECIAL {
                break;
            }
            let s = self.sector(r, id)?;
            let room = (len - out.len() as u64).min(s.len() as u64) as usize;
            out.extend_from_slice(&s[..room]);
            id = *self
                .fat
                .get(id as usize)
                .ok_or_else(|| format!("its OLE chain leaves the FAT at sector {id}"))?;
        }
        Ok(out)
    }

    /// The stream of this name (case-insensitive), as calamine would read it.
    pub(crate) fn stream<RS: Read + Seek>(
        &self,
        r: &mut RS,
        name: &str,
    ) -> Result<Option<Vec<u8>>, String> {
        let entries: Vec<&[u8]> = self.dirs.chunks_exact(128).collect();
        let entry_len = |e: &[u8]| -> u64 {
            if self.version == 3 || self.size == 512 {
                u64::from(u32_at(e, 120))
            } else {
                u64::from(u32_at(e, 120)) | (u64::from(u32_at(e, 124)) << 32)
            }
        };
        let found = entries.iter().find(|e| {
            let units: Vec<u16> = e[..64]
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .take_while(|&u| u != 0)
                .collect();
            String::from_utf16_lossy(&units).eq_ignore_ascii_case(name)
        });
        let Some(e) = found else {
            return Ok(None);
        };
        let (start, len) = (u32_at(e, 116), entry_len(e));
        let len = len.min((self.max_id + 1) * self.size as u64);
        if len >= 4096 {
            return self.chain(r, start, len).map(Some);
        }
        // A small stream lives in the mini stream (the root entry's chain), 64 bytes a sector.
        let Some(root) = entries.first() else {
            return Ok(None);
        };
        let ministream = self.chain(r, u32_at(root, 116), entry_len(root))?;
        let mut out = Vec::new();
        let mut id = start;
        while id < FIRST_SPECIAL && (out.len() as u64) < len {
            let at = id as usize * 64;
            let Some(s) = ministream.get(at..(at + 64).min(ministream.len())) else {
                break;
            };
            let room = (len as usize - out.len()).min(s.len());
            out.extend_from_slice(&s[..room]);
            match self.mini_fat.get(id as usize) {
                Some(&next) => id = next,
                None => break,
            }
        }
        Ok(Some(out))
    }
}

/// Whether following `next[i]` from some `i` ever comes back (a functional graph with a loop).
pub(crate) fn has_cycle(next: &[u32]) -> bool {
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
    use std::io::Cursor;

    #[test]
    fn looping_ole_chains_are_detected() {
        assert!(has_cycle(&[1, 2, 0]));
        assert!(has_cycle(&[0xFFFF_FFFE, 2, 1]));
        assert!(!has_cycle(&[1, 2, 0xFFFF_FFFE, 0xFFFF_FFFF]));
        // A minimal OLE header whose single FAT sector (sector 0) says sector 1 -> 1.
        let mut file = vec![0u8; 512 * 3];
        file[..8].copy_from_slice(OLE_MAGIC);
        file[0x1E] = 9;
        file[0x30..0x34].copy_from_slice(&u32::MAX.to_le_bytes());
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
        assert!(Ole::open(&mut Cursor::new(&file)).is_ok());
        file[fat + 4..fat + 8].copy_from_slice(&1u32.to_le_bytes());
        assert!(Ole::open(&mut Cursor::new(&file)).is_err());
    }
}

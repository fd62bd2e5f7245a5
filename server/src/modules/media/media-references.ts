import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors.js';
import { MediaFile } from './media-file.entity.js';
import { MediaKind } from './media-formats.js';

/** A file a record wants to point at, and the kind the field it is named in needs. */
export interface WantedMedia {
  id: number;
  kind: MediaKind;
}

/**
 * The one check of media references (products, categories, blog covers): every wanted file must
 * exist and be of the kind its field needs. All are read in one query; the first that fails is
 * BAD_USER_INPUT on its field (`associatedImageIds.3` reports as `associatedImageIds`).
 */
export async function checkedMediaFiles(em: EntityManager, wanted: Map<string, WantedMedia>): Promise<Map<number, MediaFile>> {
  if (!wanted.size) return new Map();
  const ids = [...new Set([...wanted.values()].map((w) => w.id))];
  const found = new Map((await em.find(MediaFile, { id: { $in: ids } })).map((f) => [f.id, f]));
  for (const [path, { id, kind }] of wanted) {
    const file = found.get(id);
    const field = path.replace(/\.\d+$/, '');
    if (!file) throw badInput(`The file ${id} does not exist.`, field);
    if (file.kind !== kind) throw badInput(kind === MediaKind.AUDIO ? `"${file.friendlyName}" is not an audio file.` : `"${file.friendlyName}" is not an image.`, field);
  }
  return found;
}

/** The image a single field names, checked as above. */
export async function checkedImage(em: EntityManager, id: number, field: string): Promise<MediaFile> {
  return (await checkedMediaFiles(em, new Map([[field, { id, kind: MediaKind.IMAGE }]]))).get(id)!;
}

/** The image `id` names, or null when it is gone or not an image (a reference kept elsewhere, read back). */
export async function existingImage(em: EntityManager, id: number): Promise<MediaFile | null> {
  const file = await em.findOne(MediaFile, id);
  return file && file.kind === MediaKind.IMAGE ? file : null;
}

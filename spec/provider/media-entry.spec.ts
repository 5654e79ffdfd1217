/** The values of a media link entry POSTed as its media resource: the Slug as key or title, nothing defaulted. */
import { mediaEntryValues } from '../../lib';
import { defineModel } from '../../lib/edm';
import type { EdmEntityType } from '../../lib/edm/model';
import type { PropertyValue } from '../../lib/edm/primitives';

const model = defineModel({
  namespace: 'Media',
  entityTypes: [
    {
      name: 'File',
      key: ['Path'],
      hasStream: true,
      properties: [
        { name: 'Path', type: 'Edm.String', nullable: false },
        { name: 'Size', type: 'Edm.Int32', nullable: false },
        { name: 'Note', type: 'Edm.String' },
        { name: 'Kind', type: 'Edm.String', defaultValue: 'blob' },
      ],
    },
    {
      name: 'Photo',
      key: ['ID'],
      hasStream: true,
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Name', type: 'Edm.String' },
      ],
    },
    {
      name: 'Clip',
      key: ['ID'],
      hasStream: true,
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Caption', type: 'Edm.String', feedCustomization: { targetPath: 'SyndicationTitle', keepInContent: true } },
        { name: 'Title', type: 'Edm.String' },
      ],
    },
    { name: 'Blob', key: ['ID'], hasStream: true, properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }] },
  ],
  entityContainers: [
    {
      name: 'C',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Files', entityType: 'Media.File' },
        { name: 'Photos', entityType: 'Media.Photo' },
        { name: 'Clips', entityType: 'Media.Clip' },
        { name: 'Blobs', entityType: 'Media.Blob' },
      ],
    },
  ],
});
const type = (name: string): EdmEntityType => model.entityTypes.get(`Media.${name}`) as EdmEntityType;

describe('mediaEntryValues', () => {
  it.each<[string, string, Record<string, PropertyValue>, string | undefined, Record<string, PropertyValue>]>([
    ['nothing, without a Slug: the provider defaults every property', 'File', {}, undefined, {}],
    ['the Slug as a single string key, percent-decoded', 'File', {}, 'a%20b.png', { Path: 'a b.png' }],
    ['a Slug that does not decode, taken as it is', 'File', {}, '100%.png', { Path: '100%.png' }],
    ['an empty Slug ignored', 'File', {}, '', {}],
    ['values the request carries win', 'File', { Path: 'given', Size: 3 }, 'slug', { Path: 'given', Size: 3 }],
    ['the Slug as the Name of a type with an integer key', 'Photo', {}, 'x.png', { Name: 'x.png' }],
    ['the property mapped to the Atom title before Title', 'Clip', {}, 'x.mp4', { Caption: 'x.mp4' }],
    ['no property to hold the Slug', 'Blob', {}, 'x', {}],
  ])('%s', (_name, name, given, slug, expected) => {
    expect(mediaEntryValues(type(name), given, slug)).toEqual(expected);
  });
});

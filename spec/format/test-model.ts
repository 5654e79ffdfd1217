/**
 * A small model beyond the ODataDemo for the writer specs: every primitive type, a media link
 * entry, an open type, a composite key, and every feed-customization target.
 */
import { buildModel } from '../../lib/edm/build';
import type { PropertyDefinition } from '../../lib/edm/definition';
import type { EdmModel } from '../../lib/edm/model';

export const PRIMITIVE_TYPES = [
  'Edm.Binary',
  'Edm.Boolean',
  'Edm.Byte',
  'Edm.DateTime',
  'Edm.DateTimeOffset',
  'Edm.Decimal',
  'Edm.Double',
  'Edm.Guid',
  'Edm.Int16',
  'Edm.Int32',
  'Edm.Int64',
  'Edm.SByte',
  'Edm.Single',
  'Edm.String',
  'Edm.Time',
] as const;

const LIBRARY = 'http://example.org/library';

const bookProperties: PropertyDefinition[] = [
  { name: 'Isbn', type: 'Edm.String', nullable: false },
  { name: 'Edition', type: 'Edm.Int32', nullable: false },
  { name: 'Title', type: 'Edm.String', feedCustomization: { targetPath: 'SyndicationTitle', contentKind: 'html', keepInContent: false } },
  { name: 'Blurb', type: 'Edm.String', feedCustomization: { targetPath: 'SyndicationSummary', contentKind: 'xhtml', keepInContent: true } },
  { name: 'Author', type: 'Edm.String', feedCustomization: { targetPath: 'SyndicationAuthorName', keepInContent: false } },
  { name: 'AuthorEmail', type: 'Edm.String', feedCustomization: { targetPath: 'SyndicationAuthorEmail', keepInContent: true } },
  { name: 'AuthorUri', type: 'Edm.String', feedCustomization: { targetPath: 'SyndicationAuthorUri', keepInContent: true } },
  { name: 'Published', type: 'Edm.DateTime', feedCustomization: { targetPath: 'SyndicationPublished', keepInContent: true } },
  { name: 'Changed', type: 'Edm.DateTimeOffset', feedCustomization: { targetPath: 'SyndicationUpdated', keepInContent: false } },
  { name: 'Rights', type: 'Edm.String', feedCustomization: { targetPath: 'SyndicationRights', contentKind: 'text', keepInContent: true } },
  { name: 'Publisher', type: 'Edm.String', feedCustomization: { targetPath: 'SyndicationContributorName', keepInContent: true } },
  { name: 'ShelfId', type: 'Edm.Int32', feedCustomization: { targetPath: 'shelf/@id', nsUri: LIBRARY, nsPrefix: 'lib', keepInContent: false } },
  { name: 'ShelfName', type: 'Edm.String', feedCustomization: { targetPath: 'shelf/name', nsUri: LIBRARY, nsPrefix: 'lib', keepInContent: true } },
  {
    name: 'Location',
    type: 'Test.Place',
    feedCustomization: { targetPath: 'shelf/room', sourcePath: 'Room', nsUri: LIBRARY, nsPrefix: 'lib', keepInContent: true },
  },
];

export const testModel: EdmModel = buildModel({
  schemas: [
    {
      namespace: 'Test',
      complexTypes: [
        {
          name: 'Place',
          properties: [
            { name: 'Room', type: 'Edm.String' },
            { name: 'Floor', type: 'Edm.Int32' },
          ],
        },
      ],
      entityTypes: [
        {
          name: 'Everything',
          key: ['Id'],
          properties: [{ name: 'Id', type: 'Edm.Int32', nullable: false }, ...PRIMITIVE_TYPES.map((type) => ({ name: type.slice(4), type }))],
        },
        {
          name: 'Photo',
          key: ['Id'],
          hasStream: true,
          properties: [
            { name: 'Id', type: 'Edm.Int32', nullable: false },
            { name: 'Caption', type: 'Edm.String', feedCustomization: { targetPath: 'SyndicationTitle', contentKind: 'text', keepInContent: false } },
            { name: 'Version', type: 'Edm.Int32', nullable: false, concurrencyMode: 'Fixed' },
          ],
        },
        {
          name: 'Bag',
          key: ['Id'],
          openType: true,
          properties: [
            { name: 'Id', type: 'Edm.Int32', nullable: false },
            { name: 'Label', type: 'Edm.String' },
          ],
        },
        { name: 'Book', key: ['Isbn', 'Edition'], properties: bookProperties },
      ],
      entityContainers: [
        {
          name: 'Library',
          isDefaultEntityContainer: true,
          entitySets: [
            { name: 'Everything', entityType: 'Test.Everything' },
            { name: 'Photos', entityType: 'Test.Photo' },
            { name: 'Bags', entityType: 'Test.Bag' },
            { name: 'Books', entityType: 'Test.Book' },
          ],
        },
      ],
    },
  ],
});

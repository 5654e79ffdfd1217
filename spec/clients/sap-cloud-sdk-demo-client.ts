/**
 * The static shape of the part of the generated ODataDemo client that the specs use. The client
 * itself is generated at test time (see sap-cloud-sdk-generate.ts), so its own `.d.ts` cannot be
 * imported here; these declarations mirror it with the SDK's public types, and a guard checks the
 * loaded module at run time before it is used.
 */
import type {
  BatchChangeSet,
  CreateRequestBuilder,
  DefaultDeSerializers,
  DeleteRequestBuilder,
  DeserializedType,
  Entity,
  EntityApi,
  EntityBuilderType,
  GetAllRequestBuilder,
  GetByKeyRequestBuilder,
  Link,
  ODataBatchRequestBuilder,
  OneToOneLink,
  OrderableEdmTypeField,
  RequestBuilder,
  UpdateRequestBuilder,
} from '@sap-cloud-sdk/odata-v2';

type Ds = DefaultDeSerializers;
/** The JS value type the SDK's default (de)serializers use for an EDM type. */
type V<EdmT extends 'Edm.Int32' | 'Edm.String' | 'Edm.DateTime' | 'Edm.Decimal'> = DeserializedType<Ds, EdmT>;
type Field<EntityT extends Entity, EdmT extends 'Edm.Int32' | 'Edm.String' | 'Edm.DateTime' | 'Edm.Decimal', NullableT extends boolean> = OrderableEdmTypeField<
  EntityT,
  Ds,
  EdmT,
  NullableT,
  true
>;

/** ODataDemo.Address as the generated client types it. */
interface Address {
  street?: V<'Edm.String'>;
  city?: V<'Edm.String'>;
  state?: V<'Edm.String'>;
  zipCode?: V<'Edm.String'>;
  country?: V<'Edm.String'>;
}

/** ODataDemo.Product (entity set Products). */
export interface Product extends Entity {
  id: V<'Edm.Int32'>;
  name?: V<'Edm.String'> | null;
  description?: V<'Edm.String'> | null;
  releaseDate: V<'Edm.DateTime'>;
  discontinuedDate?: V<'Edm.DateTime'> | null;
  rating: V<'Edm.Int32'>;
  price: V<'Edm.Decimal'>;
  category?: Category | null;
  supplier?: Supplier | null;
}

/** ODataDemo.Category (entity set Categories). */
interface Category extends Entity {
  id: V<'Edm.Int32'>;
  name?: V<'Edm.String'> | null;
  products: Product[];
}

/** ODataDemo.Supplier (entity set Suppliers); `Concurrency` has ConcurrencyMode="Fixed". */
export interface Supplier extends Entity {
  id: V<'Edm.Int32'>;
  name?: V<'Edm.String'> | null;
  address: Address;
  concurrency: V<'Edm.Int32'>;
  products: Product[];
}

/** The request builders every generated entity API has. */
interface RequestBuilderOf<EntityT extends Entity> extends RequestBuilder<EntityT, Ds> {
  getAll(): GetAllRequestBuilder<EntityT, Ds>;
  getByKey(id: number): GetByKeyRequestBuilder<EntityT, Ds>;
  create(entity: EntityT): CreateRequestBuilder<EntityT, Ds>;
  update(entity: EntityT): UpdateRequestBuilder<EntityT, Ds>;
  delete(id: number): DeleteRequestBuilder<EntityT, Ds>;
  delete(entity: EntityT): DeleteRequestBuilder<EntityT, Ds>;
}

/** `productsApi` of the generated service. */
interface ProductsApi extends EntityApi<Product, Ds> {
  requestBuilder(): RequestBuilderOf<Product>;
  entityBuilder(): EntityBuilderType<Product, Ds>;
  schema: {
    ID: Field<Product, 'Edm.Int32', false>;
    NAME: Field<Product, 'Edm.String', true>;
    DESCRIPTION: Field<Product, 'Edm.String', true>;
    RELEASE_DATE: Field<Product, 'Edm.DateTime', false>;
    DISCONTINUED_DATE: Field<Product, 'Edm.DateTime', true>;
    RATING: Field<Product, 'Edm.Int32', false>;
    PRICE: Field<Product, 'Edm.Decimal', false>;
    CATEGORY: OneToOneLink<Product, Ds, CategoriesApi>;
    SUPPLIER: OneToOneLink<Product, Ds, SuppliersApi>;
  };
}

/** `categoriesApi` of the generated service. */
interface CategoriesApi extends EntityApi<Category, Ds> {
  requestBuilder(): RequestBuilderOf<Category>;
  entityBuilder(): EntityBuilderType<Category, Ds>;
  schema: {
    ID: Field<Category, 'Edm.Int32', false>;
    NAME: Field<Category, 'Edm.String', true>;
    PRODUCTS: Link<Category, Ds, ProductsApi>;
  };
}

/** `suppliersApi` of the generated service. */
interface SuppliersApi extends EntityApi<Supplier, Ds> {
  requestBuilder(): RequestBuilderOf<Supplier>;
  entityBuilder(): EntityBuilderType<Supplier, Ds>;
  schema: {
    ID: Field<Supplier, 'Edm.Int32', false>;
    NAME: Field<Supplier, 'Edm.String', true>;
    CONCURRENCY: Field<Supplier, 'Edm.Int32', false>;
    PRODUCTS: Link<Supplier, Ds, ProductsApi>;
  };
}

/** A request that may stand in a batch outside a changeset. */
type ReadRequest =
  | GetAllRequestBuilder<Product, Ds>
  | GetAllRequestBuilder<Category, Ds>
  | GetAllRequestBuilder<Supplier, Ds>
  | GetByKeyRequestBuilder<Product, Ds>
  | GetByKeyRequestBuilder<Category, Ds>
  | GetByKeyRequestBuilder<Supplier, Ds>;

/** A request that may stand in a changeset. */
type WriteRequest =
  | CreateRequestBuilder<Product, Ds>
  | UpdateRequestBuilder<Product, Ds>
  | DeleteRequestBuilder<Product, Ds>
  | CreateRequestBuilder<Category, Ds>
  | UpdateRequestBuilder<Category, Ds>
  | DeleteRequestBuilder<Category, Ds>
  | CreateRequestBuilder<Supplier, Ds>
  | UpdateRequestBuilder<Supplier, Ds>
  | DeleteRequestBuilder<Supplier, Ds>;

/** What `odataDemo()` returns. */
export interface ODataDemoService {
  readonly productsApi: ProductsApi;
  readonly categoriesApi: CategoriesApi;
  readonly suppliersApi: SuppliersApi;
  batch(...requests: Array<ReadRequest | BatchChangeSet<Ds>>): ODataBatchRequestBuilder<Ds>;
  changeset(...requests: WriteRequest[]): BatchChangeSet<Ds>;
}

/** The generated client's entry module (`index.js`), for a service folder named `odata-demo`. */
export interface ODataDemoModule {
  odataDemo(): ODataDemoService;
  readonly defaultOdataDemoPath: string;
}

function hasFunction(value: object, name: string): boolean {
  return typeof (value as Record<string, unknown>)[name] === 'function';
}

/** Guard: the loaded module is the generated ODataDemo client (checked by its exports). */
export function isODataDemoModule(value: unknown): value is ODataDemoModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    hasFunction(value, 'odataDemo') &&
    hasFunction(value, 'batch') &&
    hasFunction(value, 'changeset') &&
    hasFunction(value, 'Products') &&
    hasFunction(value, 'Categories') &&
    hasFunction(value, 'Suppliers') &&
    typeof (value as Record<string, unknown>)['defaultOdataDemoPath'] === 'string'
  );
}

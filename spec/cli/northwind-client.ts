/**
 * The static shape of the part of the SAP Cloud SDK client generated from the introspected
 * Northwind service that the end-to-end spec uses (the client is generated at test time, see
 * spec/clients/sap-cloud-sdk-generate.ts; these declarations mirror it with the SDK's public types
 * and a guard checks the loaded module before use). The SDK names the generated classes after the
 * entity sets (`Products`; an entity set named `A_Product` or `ProductCollection` would give
 * `Product`) and the fields after the properties in upper snake case (`ProductID` -> `PRODUCT_ID`).
 */
import type {
  DefaultDeSerializers,
  DeserializedType,
  Entity,
  EntityApi,
  GetAllRequestBuilder,
  GetByKeyRequestBuilder,
  Link,
  OneToOneLink,
  OrderableEdmTypeField,
  RequestBuilder,
} from '@sap-cloud-sdk/odata-v2';

type Ds = DefaultDeSerializers;
type EdmName = 'Edm.Int16' | 'Edm.Int32' | 'Edm.String' | 'Edm.Decimal' | 'Edm.DateTime' | 'Edm.Boolean';
type Field<EntityT extends Entity, EdmT extends EdmName, NullableT extends boolean> = OrderableEdmTypeField<EntityT, Ds, EdmT, NullableT, true>;
type V<EdmT extends EdmName> = DeserializedType<Ds, EdmT>;

/** Product. */
interface Product extends Entity {
  productId: V<'Edm.Int16'>;
  productName: V<'Edm.String'>;
  unitPrice: V<'Edm.Decimal'>;
  discontinued: V<'Edm.Boolean'>;
  category?: Category | null;
}

/** Category. */
interface Category extends Entity {
  categoryId: V<'Edm.Int16'>;
  categoryName: V<'Edm.String'>;
  products: Product[];
}

/** Customer (a char(5) key). */
interface Customer extends Entity {
  customerId: V<'Edm.String'>;
  companyName: V<'Edm.String'>;
  city?: V<'Edm.String'> | null;
  orders: Order[];
}

/** Order. */
interface Order extends Entity {
  orderId: V<'Edm.Int32'>;
  orderDate: V<'Edm.DateTime'>;
  shipCountry?: V<'Edm.String'> | null;
}

/** `productsApi`. */
interface ProductsApi extends EntityApi<Product, Ds> {
  requestBuilder(): RequestBuilder<Product, Ds> & { getAll(): GetAllRequestBuilder<Product, Ds> };
  schema: {
    PRODUCT_ID: Field<Product, 'Edm.Int16', false>;
    PRODUCT_NAME: Field<Product, 'Edm.String', false>;
    UNIT_PRICE: Field<Product, 'Edm.Decimal', false>;
    DISCONTINUED: Field<Product, 'Edm.Boolean', false>;
    CATEGORY: OneToOneLink<Product, Ds, CategoriesApi>;
  };
}

/** `categoriesApi`. */
interface CategoriesApi extends EntityApi<Category, Ds> {
  schema: {
    CATEGORY_NAME: Field<Category, 'Edm.String', false>;
  };
}

/** `customersApi`. */
interface CustomersApi extends EntityApi<Customer, Ds> {
  requestBuilder(): RequestBuilder<Customer, Ds> & { getByKey(customerId: string): GetByKeyRequestBuilder<Customer, Ds> };
  schema: {
    COMPANY_NAME: Field<Customer, 'Edm.String', false>;
    ORDERS: Link<Customer, Ds, OrdersApi>;
  };
}

/** `ordersApi`. */
interface OrdersApi extends EntityApi<Order, Ds> {
  requestBuilder(): RequestBuilder<Order, Ds> & { getAll(): GetAllRequestBuilder<Order, Ds> };
  schema: {
    ORDER_ID: Field<Order, 'Edm.Int32', false>;
    ORDER_DATE: Field<Order, 'Edm.DateTime', false>;
    SHIP_COUNTRY: Field<Order, 'Edm.String', true>;
  };
}

/** What `northwind()` returns. */
interface NorthwindService {
  readonly productsApi: ProductsApi;
  readonly categoriesApi: CategoriesApi;
  readonly customersApi: CustomersApi;
  readonly ordersApi: OrdersApi;
}

/** The generated entry module for a service folder named `northwind`. */
export interface NorthwindModule {
  northwind(): NorthwindService;
}

/** Guard: the loaded module is the generated Northwind client, with a class per entity set named as the set (none renamed). */
export function isNorthwindModule(value: unknown): value is NorthwindModule {
  if (typeof value !== 'object' || value === null) return false;
  const exports = value as Record<string, unknown>;
  return ['northwind', 'Products', 'Categories', 'Customers', 'Orders', 'OrderDetails', 'Employees', 'Territories', 'Regions', 'Suppliers'].every(
    (name) => typeof exports[name] === 'function',
  );
}

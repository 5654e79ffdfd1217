/**
 * The app descriptor (`manifest.json`) of one preview app: a SAP Fiori elements V2 List Report
 * over one entity set, its Object Page, and an Object Page for each to-many navigation that
 * leads to a set (opened from a table on the Object Page when the model's facets show one).
 * Everything else (columns, filters, value help, what may be edited, created or deleted) the
 * templates read from the service's `$metadata`, so the app follows the model.
 */
import type { EdmEntitySet, EdmModel } from '../edm';
import { UI5_VERSION } from './options';

/** The component's name: the same in every app, each app being its own page. */
export const COMPONENT_NAME = 'odatav2.preview';

/** The SAPUI5 libraries a Fiori elements V2 List Report and Object Page load at start. */
const LIBRARIES = ['sap.ui.core', 'sap.m', 'sap.ui.comp', 'sap.uxap', 'sap.ui.generic.app', 'sap.suite.ui.generic.template'];

const OBJECT_PAGE = 'sap.suite.ui.generic.template.ObjectPage';

/** The Object Pages under a set's page: one per to-many navigation that reaches a set. */
function subPages(model: EdmModel, entitySet: EdmEntitySet): Record<string, unknown> {
  const pages: Record<string, unknown> = {};
  for (const navigation of entitySet.entityType.navigationProperties) {
    const target = model.navigationTarget(entitySet, navigation);
    if (target === undefined || !navigation.isCollection) continue;
    pages[`ObjectPage|${navigation.name}`] = { navigationProperty: navigation.name, entitySet: target.name, component: { name: OBJECT_PAGE } };
  }
  return pages;
}

/** The manifest of the app over `entitySet`, whose service is at `service`. */
export function manifestOf(model: EdmModel, entitySet: EdmEntitySet, service: string, title: string): unknown {
  const objectPage: Record<string, unknown> = { entitySet: entitySet.name, component: { name: OBJECT_PAGE } };
  const below = subPages(model, entitySet);
  if (Object.keys(below).length > 0) objectPage.pages = below;
  return {
    _version: '1.65.0',
    'sap.app': {
      id: COMPONENT_NAME,
      type: 'application',
      title,
      applicationVersion: { version: '1.0.0' },
      dataSources: { mainService: { uri: service, type: 'OData', settings: { odataVersion: '2.0' } } },
    },
    'sap.ui': { technology: 'UI5', deviceTypes: { desktop: true, tablet: true, phone: true } },
    'sap.ui5': {
      dependencies: { minUI5Version: UI5_VERSION, libs: Object.fromEntries(LIBRARIES.map((name) => [name, {}])) },
      models: {
        '': {
          dataSource: 'mainService',
          preload: true,
          settings: { defaultBindingMode: 'TwoWay', defaultCountMode: 'Inline', refreshAfterChange: false, useBatch: true },
        },
      },
      contentDensities: { compact: true, cozy: true },
      flexEnabled: false,
    },
    'sap.ui.generic.app': {
      _version: '1.3.0',
      settings: { forceGlobalRefresh: false, objectPageHeaderType: 'Dynamic', showDraftToggle: false },
      pages: {
        [`ListReport|${entitySet.name}`]: {
          entitySet: entitySet.name,
          component: {
            name: 'sap.suite.ui.generic.template.ListReport',
            list: true,
            // A preview shows the rows at once, as a table does, not after a first press of Go.
            settings: { smartVariantManagement: true, dataLoadSettings: { loadDataOnAppLaunch: 'always' } },
          },
          pages: { [`ObjectPage|${entitySet.name}`]: objectPage },
        },
      },
    },
    'sap.fiori': { registrationIds: [], archeType: 'transactional' },
  };
}

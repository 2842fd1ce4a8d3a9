import type { QueryFilter } from 'patchbay';
import { hasRows } from './related-rows.js';

/** The component templates each `?<name>=true|false` filter of device and module types looks for. */
const TEMPLATE_TABLES = {
  console_ports: ['dcim_consoleporttemplate'],
  console_server_ports: ['dcim_consoleserverporttemplate'],
  power_ports: ['dcim_powerporttemplate'],
  power_outlets: ['dcim_poweroutlettemplate'],
  interfaces: ['dcim_interfacetemplate'],
  pass_through_ports: ['dcim_frontporttemplate', 'dcim_rearporttemplate'],
  module_bays: ['dcim_modulebaytemplate'],
  device_bays: ['dcim_devicebaytemplate'],
  inventory_items: ['dcim_inventoryitemtemplate'],
};

/** Types that have (or lack) templates of each named kind, through the templates' `column` (`device_type_id`). */
export function hasTemplates(column: string, names: (keyof typeof TEMPLATE_TABLES)[]): Record<string, QueryFilter> {
  return Object.fromEntries(names.map((name) => [name, hasRows(column, ...TEMPLATE_TABLES[name])]));
}

import { ValidationError, type Model, type Row, type ValidateContext } from 'patchbay';

/** An interface's (or VM interface's) primary MAC address is one of its own, or one assigned to nothing. */
export async function checkPrimaryMac(row: Row, model: Model, ctx: ValidateContext): Promise<void> {
  if (!row.primary_mac_address_id) return;
  const mac = await ctx.stored(ctx.registry.get('dcim.macaddress'), row.primary_mac_address_id as number);
  const elsewhere = mac?.assigned_object_id !== null && (mac?.assigned_object_type_id !== ctx.registry.objectTypes.idOf(model.key) || mac?.assigned_object_id !== row.id);
  if (!mac || !elsewhere) return;
  const owner = ctx.registry.find(ctx.registry.objectTypes.keyOf(mac.assigned_object_type_id as number) ?? '');
  const other = owner ? await ctx.stored(owner, mac.assigned_object_id as number) : undefined;
  throw ValidationError.of('primary_mac_address', `MAC address ${String(mac.mac_address).toUpperCase()} is assigned to a different interface (${other?.name ?? mac.assigned_object_id}).`);
}
